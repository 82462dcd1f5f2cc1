import { AccountMenu } from '../../../components/account-menu/AccountMenu';
import type { User } from '@telemedicina/shared/auth';
import classes from './AdminLayout.module.css';

/** The staff frame's account menu: the name beside the photo; the profile, or only its security page. */
export function UserMenu({ user, isProfileOnly }: { user: User; isProfileOnly: boolean }) {
  return (
    <AccountMenu
      user={user}
      profilePath={isProfileOnly ? '/admin/profile/security' : '/admin/profile'}
      buttonClassName={classes.userButton}
      nameClassName={classes.userName}
    />
  );
}
