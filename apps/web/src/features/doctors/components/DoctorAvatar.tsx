import '@mantine/core/styles/Avatar.layer.css';
import { Avatar } from '@mantine/core';

/** The doctor's photo, or their initials on a coloured disc. */
export function DoctorAvatar({
  name,
  photoUrl,
  size,
}: {
  name: string;
  photoUrl: string | null;
  size: number;
}) {
  return <Avatar src={photoUrl} name={name} color="initials" size={size} alt="" />;
}
