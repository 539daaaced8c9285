import { useSession } from '../../app/hooks.ts';
import { es } from '../../i18n/es.ts';
import { ColleaguesSection } from './ColleaguesSection.tsx';
import { EmailStatus } from './EmailStatus.tsx';
import { FirmNameForm } from './FirmNameForm.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { RouteSettingsSection } from './RouteSettingsSection.tsx';

/**
 * Mi cuenta: the email and its validation, name and language, a password change (PUT /api/users),
 * the firm's name (issue 44 §6) and colleagues (issue 26).
 */
export default function UserProfilePage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <main className="app-page">
      <h1>{es.profile.title}</h1>
      <EmailStatus user={user} />
      <ProfileForm user={user} />
      <PasswordForm />
      <FirmNameForm />
      <ColleaguesSection />
      <RouteSettingsSection />
    </main>
  );
}
