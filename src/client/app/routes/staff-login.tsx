import { StaffLogin } from '@/features/auth/components/staff-login';

export default function StaffLoginRoute() {
  return <StaffLogin />;
}
