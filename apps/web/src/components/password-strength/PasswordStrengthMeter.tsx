import '@mantine/core/styles/Progress.layer.css';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { checkPassword, passwordMinLength } from '@telemedicina/shared/password-policy';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordProblemKey } from '../../lib/form-errors';
import classes from './PasswordStrengthMeter.module.css';

export interface PasswordStrengthMeterProps {
  password: string;
  /** The person's own data: a password containing it is refused, as on the server. */
  personal?: { email?: string; name?: string };
  /** Id for `aria-describedby` of the password input. */
  id?: string;
}

const scoreColors = ['red', 'red', 'orange', 'teal', 'teal'] as const;
const scoreNames = ['veryWeak', 'weak', 'fair', 'strong', 'veryStrong'] as const;

/**
 * A live strength meter driven by the same `checkPassword` the server applies, so the reasons
 * shown while typing are exactly the reasons a submission would be refused for.
 */
export function PasswordStrengthMeter({ password, personal, id }: PasswordStrengthMeterProps) {
  const { t } = useTranslation();
  const fallbackId = useId();
  const email = personal?.email;
  const name = personal?.name;
  const check = useMemo(() => checkPassword(password, { email, name }), [password, email, name]);
  const isEmpty = password.length === 0;
  const isAccepted = !isEmpty && check.problems.length === 0;
  const scoreName = scoreNames[check.score];

  return (
    <Stack
      gap={6}
      id={id ?? fallbackId}
      className={classes.root}
      data-testid="password-strength"
      data-score={isEmpty ? '' : String(check.score)}
      data-accepted={isAccepted || undefined}
    >
      <Group gap={4} wrap="nowrap" aria-hidden>
        {[0, 1, 2, 3].map((segment) => (
          <Progress
            key={segment}
            className={classes.segment}
            size={6}
            radius="xl"
            value={!isEmpty && check.score > segment ? 100 : 0}
            color={scoreColors[check.score]}
          />
        ))}
      </Group>
      <Text size="xs" c="gray.7" aria-live="polite" data-testid="password-strength-label">
        {isEmpty
          ? t('passwordPolicy.hint', { min: passwordMinLength })
          : t('passwordPolicy.strength', { level: t(`passwordPolicy.levels.${scoreName}`) })}
      </Text>
      {!isEmpty && check.problems.length > 0 ? (
        <ul className={classes.problems} data-testid="password-problems">
          {check.problems.map((problem) => (
            <li key={problem} data-testid={`password-problem-${problem}`}>
              <IconCircleX size={14} aria-hidden className={classes.problemIcon} />
              <Text span size="xs" c="red.8">
                {t(passwordProblemKey(problem), { min: passwordMinLength })}
              </Text>
            </li>
          ))}
        </ul>
      ) : null}
      {isAccepted ? (
        <Group gap={4} wrap="nowrap">
          <IconCircleCheck size={14} aria-hidden className={classes.okIcon} />
          <Text size="xs" c="teal.9">
            {t('passwordPolicy.accepted')}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}
