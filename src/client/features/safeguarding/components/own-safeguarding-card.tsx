import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useOwnSafeguarding } from '../api/safeguarding-api';
import { CheckList } from './check-list';

/** A facilitator's own checks: where each stands and what is missing or due. Nobody else's. */
export function OwnSafeguardingCard() {
  const own = useOwnSafeguarding();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Safeguarding checks</h2>
        </CardTitle>
        <CardDescription>
          What the office holds for you. Schools need these to be in date before you can be sent; send any
          renewal to the office.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {own.isError ? <p role="alert">{own.error.message}</p> : null}
        {own.data ? (
          <>
            <div className="flex items-center gap-2">
              <SafeguardingBadge state={own.data.status.state} />
            </div>
            <CheckList status={own.data.status} />
            {own.data.dbs ? (
              <p className="text-muted-foreground text-sm">
                DBS certificate {own.data.dbs.certificateNumber}
                {own.data.dbs.onUpdateService ? ', on the Update Service' : ''}
              </p>
            ) : null}
          </>
        ) : own.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : null}
      </CardContent>
    </Card>
  );
}
