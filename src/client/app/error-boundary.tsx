import { CircleAlert } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

interface State {
  error: Error | null;
}

/** Last line of defence: a render error or a page chunk that failed to load shows a way out, not a blank page. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Unhandled error while rendering', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="flex min-h-dvh items-center justify-center px-4">
        <div role="alert" className="grid max-w-md gap-4 text-center">
          <CircleAlert className="mx-auto size-10 text-destructive" aria-hidden />
          <h1 className="font-semibold text-2xl">Something went wrong</h1>
          <p className="text-muted-foreground text-sm">
            The page could not be shown. Reloading usually fixes this; if it keeps happening, contact your
            administrator.
          </p>
          <Button className="justify-self-center" onClick={() => window.location.reload()}>
            Reload the page
          </Button>
        </div>
      </main>
    );
  }
}
