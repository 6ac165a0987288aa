import { zodResolver } from '@hookform/resolvers/zod';
import {
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationPreferencesForm,
  notificationPreferencesForm,
  preferencesFromForm,
} from '@shared/schemas/notifications';
import { Bell, BellOff } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError, FormField } from '@/components/ui/form';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, showRefusal } from '@/lib/api';
import {
  fetchPushKey,
  type PreferencesAnswer,
  removeSubscription,
  sendSubscription,
  useNotificationPreferences,
  usePushStatus,
  useSaveNotificationPreferences,
} from '../api/notifications-api';
import { currentSubscription, PushDeviceError, pushSupport, subscribeDevice } from '../lib/push-device';

const CHANNEL_LABELS: Record<NotificationChannel, string> = {
  push: 'Push',
  email: 'Email',
  both: 'Push and email',
  none: 'None',
};

const SELECT_CLASS =
  'h-9 w-full rounded-md border border-input bg-background px-2 text-sm shadow-xs focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:w-48';

/**
 * Notifications, for facilitators and staff: push on this device, how each kind of event reaches
 * them, and quiet hours. Staff also see whether push services refuse the portal's key.
 */
export function NotificationsCard({ staff = false }: { staff?: boolean }) {
  const preferences = useNotificationPreferences();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Notifications</h2>
        </CardTitle>
        <CardDescription>
          Hear of new offers and changes to your sessions by push notification on this device, by email, or
          both.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {staff ? <KeyProblem /> : null}
        <ThisDevice />
        {preferences.data ? (
          <PreferencesForm saved={preferences.data} />
        ) : preferences.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(preferences.error, 'Your notification settings could not be loaded.')}
          </p>
        ) : (
          <Skeleton className="h-48 w-full" />
        )}
      </CardContent>
    </Card>
  );
}

function KeyProblem() {
  const status = usePushStatus(true);
  const problem = status.data?.keyProblem;
  if (!problem) return null;
  return (
    <p role="alert" className="rounded-md border border-destructive/50 p-3 text-destructive text-sm">
      A push service refused the portal's key (answer {problem.status}) on{' '}
      {new Date(problem.at).toLocaleString('en-GB')}. Pushes are not reaching some devices: check
      VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT.
    </p>
  );
}

type DeviceState = 'checking' | 'on' | 'off';

function ThisDevice() {
  const support = pushSupport();
  const [state, setState] = useState<DeviceState>('checking');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    currentSubscription()
      .then((subscription) => {
        if (live) setState(subscription ? 'on' : 'off');
      })
      .catch(() => {
        if (live) setState('off');
      });
    return () => {
      live = false;
    };
  }, []);

  if (support === 'ios-needs-home-screen')
    return (
      <p className="rounded-md border p-3 text-sm" data-testid="ios-home-screen-note">
        On iPhone and iPad, notifications work only in the portal added to the Home Screen: open the portal in
        Safari, tap Share, then Add to Home Screen, and turn notifications on from there.
      </p>
    );
  if (support === 'unsupported')
    return (
      <p className="text-muted-foreground text-sm">This browser cannot show notifications from the portal.</p>
    );

  const turnOn = async () => {
    setBusy(true);
    try {
      const { publicKey } = await fetchPushKey();
      const { subscription, replaces } = await subscribeDevice(publicKey);
      const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      await sendSubscription({ endpoint: json.endpoint, keys: json.keys, ...(replaces ? { replaces } : {}) });
      setState('on');
      toast({ title: 'Notifications turned on', description: 'This device will get push notifications.' });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Notifications could not be turned on',
        description:
          error instanceof PushDeviceError ? error.message : errorMessage(error, 'Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    try {
      const subscription = await currentSubscription();
      if (subscription) {
        await removeSubscription(subscription.endpoint);
        await subscription.unsubscribe();
      }
      setState('off');
      toast({
        title: 'Notifications turned off',
        description: 'This device will get no push notifications.',
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Notifications could not be turned off',
        description: errorMessage(error, 'Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
      <p className="text-sm" role="status">
        {state === 'checking'
          ? 'Checking this device...'
          : state === 'on'
            ? 'Push notifications are on for this device.'
            : 'Push notifications are off for this device.'}
      </p>
      {state === 'on' ? (
        <Button variant="outline" onClick={turnOff} disabled={busy}>
          <BellOff aria-hidden />
          Turn off on this device
        </Button>
      ) : (
        <Button onClick={turnOn} disabled={busy || state === 'checking'}>
          <Bell aria-hidden />
          Turn on notifications on this device
        </Button>
      )}
    </div>
  );
}

function formValues(saved: PreferencesAnswer): NotificationPreferencesForm {
  return {
    channels: saved.channels,
    quiet: saved.quietHours !== null,
    start: saved.quietHours?.start ?? '22:00',
    end: saved.quietHours?.end ?? '07:00',
  };
}

function PreferencesForm({ saved }: { saved: PreferencesAnswer }) {
  const id = useId();
  const save = useSaveNotificationPreferences();
  const form = useForm<NotificationPreferencesForm>({
    resolver: zodResolver(notificationPreferencesForm),
    defaultValues: formValues(saved),
  });
  const quiet = form.watch('quiet');
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync(preferencesFromForm(values));
      form.reset(formValues(answer));
      toast({ title: 'Notification settings saved' });
    } catch (error) {
      showRefusal(form.setError, error, 'Your notification settings could not be saved.');
    }
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-5">
      <fieldset className="grid gap-3">
        <legend className="mb-2 font-medium text-sm">How you hear of each kind of event</legend>
        {NOTIFICATION_KINDS.map((kind) => (
          <FormField
            key={kind}
            id={`${id}-${kind}`}
            label={NOTIFICATION_KIND_LABELS[kind]}
            error={errors.channels?.[kind]?.message}
            className="sm:grid-cols-[1fr_auto] sm:items-center"
          >
            <select className={SELECT_CLASS} {...form.register(`channels.${kind}`)}>
              {(Object.keys(CHANNEL_LABELS) as NotificationChannel[]).map((channel) => (
                <option key={channel} value={channel}>
                  {CHANNEL_LABELS[channel]}
                </option>
              ))}
            </select>
          </FormField>
        ))}
      </fieldset>
      <fieldset className="grid gap-3">
        <legend className="mb-2 font-medium text-sm">Quiet hours</legend>
        <div className="flex items-center gap-2">
          <FormCheckbox control={form.control} name="quiet" id={`${id}-quiet`} />
          <label htmlFor={`${id}-quiet`} className="text-sm">
            Hold push notifications during quiet hours
          </label>
        </div>
        {quiet ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField id={`${id}-start`} label="From" error={errors.start?.message}>
              <Input type="time" {...form.register('start')} />
            </FormField>
            <FormField id={`${id}-end`} label="Until" error={errors.end?.message}>
              <Input type="time" {...form.register('end')} />
            </FormField>
          </div>
        ) : null}
        <p className="text-muted-foreground text-sm">
          Times are in {saved.timeZone.replace(/_/g, ' ')} time. Pushes wait until quiet hours end; an offer
          that would expire before then comes by email instead.
        </p>
      </fieldset>
      <FormError formState={form.formState} />
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save notification settings'}
        </Button>
      </div>
    </form>
  );
}
