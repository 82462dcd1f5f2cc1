export { AuthLayout } from './components/AuthLayout';
export { SignInPage } from './components/SignInPage';
export { RegisterPage } from './components/RegisterPage';
export { VerifyEmailPage } from './components/VerifyEmailPage';
export { ForgotPasswordPage } from './components/ForgotPasswordPage';
export { ResetPasswordPage } from './components/ResetPasswordPage';
export { AcceptInvitationPage } from './components/AcceptInvitationPage';
