export { ForgotPasswordForm } from './components/forgot-password-form';
export { SetPasswordPage } from './components/set-password-form';
