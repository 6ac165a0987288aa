import { StaffLogin } from '@/features/auth/components/staff-login';

export function StaffLoginRoute() {
  return <StaffLogin />;
}
