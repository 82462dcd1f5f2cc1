import { auditActionLabelKey } from '@telemedicina/shared/audit-actions';
import { useTranslation } from 'react-i18next';

/**
 * The words for an audit action and a record type (`audit.actions.<domain>.<verb>`,
 * `audit.targetTypes.<type>`). Every action and type the server writes has one in both languages
 * (audit-labels.test.ts walks the shared lists); an event written by an older or newer server
 * version shows its code rather than nothing.
 */
export function useAuditLabels() {
  const { t, i18n } = useTranslation();
  return {
    actionLabel: (action: string): string => {
      const key = auditActionLabelKey(action);
      return i18n.exists(key) ? t(key as 'audit.actions.auth.login') : action;
    },
    targetTypeLabel: (targetType: string): string => {
      const key = `audit.targetTypes.${targetType}`;
      return i18n.exists(key) ? t(key as 'audit.targetTypes.user') : targetType;
    },
  };
}
