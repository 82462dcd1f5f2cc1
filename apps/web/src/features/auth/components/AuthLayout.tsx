import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { Outlet, useNavigate } from 'react-router';
import { AuthFrame } from './AuthFrame';

/** The authentication area's route (empty path): the frame around the current step. */
export function AuthLayout() {
  const navigate = useNavigate();
  return (
    <AuthFrame onNavigate={(path) => void navigate(path)}>
      <Outlet />
    </AuthFrame>
  );
}
