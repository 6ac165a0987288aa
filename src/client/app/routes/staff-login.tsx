import { useLocation } from 'wouter';
import { StaffLogin } from '@/features/auth/components/staff-login';
import { PasskeySignIn } from '@/features/passkeys';
import { safeReturnPath } from '@/lib/return-path';

export default function StaffLoginRoute() {
  const [, navigate] = useLocation();
  return (
    <StaffLogin
      passkey={
        <PasskeySignIn
          page="staff"
          // back to the staff page that sent them here, if any, as after a password sign-in
          onSignedIn={() =>
            navigate(safeReturnPath(new URLSearchParams(window.location.search).get('next')) ?? '/staff')
          }
        />
      }
    />
  );
}
