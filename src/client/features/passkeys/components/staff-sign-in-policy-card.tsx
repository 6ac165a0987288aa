import { zodResolver } from '@hookform/resolvers/zod';
import { type SignInPolicyBody, signInPolicyBody } from '@shared/schemas/passkeys';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage, showRefusal } from '@/lib/api';
import { useSaveSignInPolicy, useSignInPolicy } from '../api/passkeys-api';

/**
 * Staff settings: require passkeys or Microsoft sign-in for staff accounts. It can be turned on only by
 * a staff member who signs in without a password themselves; then staff passwords are refused.
 */
export function StaffSignInPolicyCard() {
  const policy = useSignInPolicy();
  const save = useSaveSignInPolicy();
  const { control, handleSubmit, reset, setError, formState } = useForm<SignInPolicyBody>({
    resolver: zodResolver(signInPolicyBody),
    defaultValues: { staffPasskeyOrMicrosoft: false },
  });
  useEffect(() => {
    if (policy.data) reset({ staffPasskeyOrMicrosoft: policy.data.staffPasskeyOrMicrosoft });
  }, [policy.data, reset]);
  const refusal = formState.errors.staffPasskeyOrMicrosoft?.message ?? formState.errors.root?.message;

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Staff sign-in</h2>
        </CardTitle>
        <CardDescription>
          Require passkeys or Microsoft sign-in for staff accounts: staff passwords then stop working. You can
          turn this on once you have a passkey yourself, or your account is linked to Microsoft.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {policy.error ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(policy.error, 'The staff sign-in setting could not be read.')}
          </p>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            aria-label="Staff sign-in"
            onSubmit={handleSubmit((body) =>
              save.mutate(body, {
                onSuccess: () => toast({ title: 'Staff sign-in saved', variant: 'success' }),
                onError: (error) => showRefusal(setError, error, 'The setting could not be saved.'),
              }),
            )}
          >
            <div className="flex items-start gap-3">
              <FormCheckbox
                control={control}
                name="staffPasskeyOrMicrosoft"
                id="staff-passkey-or-microsoft"
              />
              <Label
                plain
                htmlFor="staff-passkey-or-microsoft"
                className="flex items-center gap-2 font-medium leading-snug"
              >
                Require passkeys or Microsoft sign-in for staff accounts
              </Label>
            </div>
            {refusal ? (
              <p role="alert" className="text-destructive text-sm">
                {refusal}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={!policy.data || save.isPending}>
                {save.isPending ? 'Saving...' : 'Save staff sign-in'}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
