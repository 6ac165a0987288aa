export { PasskeySignIn } from './components/passkey-sign-in';
export { PasskeysCard } from './components/passkeys-card';
export { StaffSignInPolicyCard } from './components/staff-sign-in-policy-card';
