import { Link, useParams, useSearchParams } from 'react-router-dom';
import { es } from '../../i18n/es-core.ts';
import { EmailValidation } from './EmailValidation.tsx';
import { GoogleSignInButton } from './GoogleSignInButton.tsx';
import { NewPasswordForm, ResetRequestForm } from './ResetForms.tsx';
import { SignInForm } from './SignInForm.tsx';
import { SignUpForm } from './SignUpForm.tsx';

export type AuthMode = 'signin' | 'signup' | 'reset' | 'emailvalidation';

export function authModeOf(param: string | undefined): AuthMode {
  return param === 'signup' || param === 'reset' || param === 'emailvalidation' ? param : 'signin';
}

/**
 * /auth/:mode? — sign in (default), sign up, password reset (with ?token= it sets the new password)
 * and the emailed validation link (?email=&token=).
 */
export default function AuthPage() {
  const mode = authModeOf(useParams().mode);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token');
  const settingNewPassword = mode === 'reset' && token !== null;

  const title = settingNewPassword
    ? es.auth.newPasswordTitle
    : { signin: es.auth.signinTitle, signup: es.auth.signupTitle, reset: es.auth.resetTitle, emailvalidation: es.auth.emailValidationTitle }[mode];

  return (
    <main className="app-auth">
      <section className="app-card app-auth__card" aria-labelledby="auth-title">
        <p className="app-topbar__brand">{es.appName}</p>
        <h1 id="auth-title">{title}</h1>
        {settingNewPassword && <NewPasswordForm token={token} />}
        {mode === 'reset' && !settingNewPassword && <ResetRequestForm />}
        {mode === 'signin' && <GoogleSignInButton />}
        {mode === 'signin' && <SignInForm />}
        {mode === 'signup' && <SignUpForm />}
        {mode === 'emailvalidation' ? (
          <EmailValidation key={searchParams.toString()} email={searchParams.get('email')} token={token} />
        ) : (
          <nav className="app-auth__links">
            {mode !== 'signin' && <Link to="/auth/signin">{es.auth.toSignin}</Link>}
            {mode !== 'signup' && <Link to="/auth/signup">{es.auth.toSignup}</Link>}
            {mode === 'signin' && <Link to="/auth/reset">{es.auth.toReset}</Link>}
          </nav>
        )}
      </section>
    </main>
  );
}
