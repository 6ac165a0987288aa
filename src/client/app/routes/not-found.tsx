import { CircleAlert } from 'lucide-react';
import { Link } from 'wouter';
import { Card, CardContent } from '@/components/ui/card';

export function NotFoundRoute() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted/50 dark:bg-background px-4">
      <Card className="w-full max-w-md">
        <CardContent className="grid gap-4">
          <div className="flex items-center gap-2">
            <CircleAlert className="size-8 text-destructive" aria-hidden />
            <h1 className="font-bold text-2xl">404 Page Not Found</h1>
          </div>
          <p className="text-muted-foreground text-sm">Did you forget to add the page to the router?</p>
          <Link href="/" className="font-medium text-primary text-sm underline-offset-4 hover:underline">
            Go to the home page
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
