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
import { queryKeys } from '@/lib/query-keys';

const MICROSOFT_SETTINGS_URL = '/api/staff/microsoft-sign-in';

export const microsoftSignInKeys = {
  settings: ['microsoft-sign-in-settings'] as const,
} as const;

export function useMicrosoftSignInSettings() {
  return useQuery({
    queryKey: microsoftSignInKeys.settings,
    queryFn: ({ signal }) =>
      apiJson<MicrosoftSignInSettings>('GET', MICROSOFT_SETTINGS_URL, undefined, { signal }),
  });
}

export function useSaveMicrosoftSignInSettings() {
  const queryClient = useQueryClient();
  return useMutation<MicrosoftSignInSettings, Error, MicrosoftSignInSettingsBody>({
    mutationFn: (body) => apiJson<MicrosoftSignInSettings>('PUT', MICROSOFT_SETTINGS_URL, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(microsoftSignInKeys.settings, saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.microsoftSignInStatus.all });
    },
  });
}

/** Look the typed directory up at Microsoft; nothing is saved. */
export function useTestMicrosoftSignIn() {
  return useMutation<MicrosoftSignInTestResult, Error, MicrosoftSignInTestBody>({
    mutationFn: (body) => apiJson<MicrosoftSignInTestResult>('POST', `${MICROSOFT_SETTINGS_URL}/test`, body),
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
