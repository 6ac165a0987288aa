import type {
  MicrosoftInvitation,
  MicrosoftSignInSettings,
  MicrosoftSignInSettingsBody,
  MicrosoftSignInTestBody,
  MicrosoftSignInTestResult,
} from '@shared/schemas/microsoft-sign-in';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { invitationFromAddress, startMicrosoftSignIn } from '@/lib/microsoft-start';

export const MICROSOFT_SETTINGS_KEY = '/api/staff/microsoft-sign-in';

export function useMicrosoftSignInSettings() {
  return useQuery<MicrosoftSignInSettings, Error>({ queryKey: [MICROSOFT_SETTINGS_KEY] });
}

export function useSaveMicrosoftSignInSettings() {
  const queryClient = useQueryClient();
  return useMutation<MicrosoftSignInSettings, Error, MicrosoftSignInSettingsBody>({
    mutationFn: (body) => apiJson<MicrosoftSignInSettings>('PUT', MICROSOFT_SETTINGS_KEY, body),
    onSuccess: (saved) => {
      queryClient.setQueryData([MICROSOFT_SETTINGS_KEY], saved);
      void queryClient.invalidateQueries({ queryKey: ['/api/auth/microsoft'] });
    },
  });
}

/** Look the typed directory up at Microsoft; nothing is saved. */
export function useTestMicrosoftSignIn() {
  return useMutation<MicrosoftSignInTestResult, Error, MicrosoftSignInTestBody>({
    mutationFn: (body) => apiJson<MicrosoftSignInTestResult>('POST', `${MICROSOFT_SETTINGS_KEY}/test`, body),
  });
}

/** An invitation for your own account, followed at once: the quickest way to link yourself. */
export async function linkMyAccount(userId: number): Promise<void> {
  const invitation = await apiJson<MicrosoftInvitation>(
    'POST',
    `/api/staff/users/${userId}/microsoft-invitation`,
  );
  startMicrosoftSignIn(invitationFromAddress(new URL(invitation.link)));
}
