import { Link, useParams, useSearchParams } from 'react-router-dom';
import { es } from '../../i18n/es.ts';
import { NewPasswordForm, ResetRequestForm } from './ResetForms.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';

export type AuthMode = 'signin' | 'signup' | 'reset';

export function authModeOf(param: string | undefined): AuthMode {
  return param === 'signup' || param === 'reset' ? param : 'signin';
}

/** /auth/:mode? — sign in (default), sign up, and password reset (with ?token= it sets the new password). */
export default function AuthPage() {
  const mode = authModeOf(useParams().mode);
  const token = useSearchParams()[0].get('token');
  const settingNewPassword = mode === 'reset' && token !== null;

  const title = settingNewPassword
    ? es.auth.newPasswordTitle
    : { signin: es.auth.signinTitle, signup: es.auth.signupTitle, reset: es.auth.resetTitle }[mode];

  return (
    <main className="app-auth">
      <section className="app-card app-auth__card" aria-labelledby="auth-title">
        <p className="app-topbar__brand">{es.appName}</p>
        <h1 id="auth-title">{title}</h1>
        {settingNewPassword && <NewPasswordForm token={token} />}
        {mode === 'reset' && !settingNewPassword && <ResetRequestForm />}
        {mode === 'signin' && <SignInForm />}
        {mode === 'signup' && <SignUpForm />}
        <nav className="app-auth__links">
          {mode !== 'signin' && <Link to="/auth/signin">{es.auth.toSignin}</Link>}
          {mode !== 'signup' && <Link to="/auth/signup">{es.auth.toSignup}</Link>}
          {mode === 'signin' && <Link to="/auth/reset">{es.auth.toReset}</Link>}
        </nav>
      </section>
    </main>
  );
}
