import { auditOutcomeSchema } from '@telemedicina/shared/admin';
import {
  auditActionLabelKey,
  auditActions,
  auditTargetTypes,
  recordAccessActions,
} from '@telemedicina/shared/audit-actions';
import { outboxStatusSchema } from '@telemedicina/shared/auth';
import { emailTemplates } from '@telemedicina/shared/email-templates';
import { describe, expect, it } from 'vitest';
import en from '../../public/assets/i18n/en.json';
import es from '../../public/assets/i18n/es.json';
import { recordAccessActionKey } from '../features/records/components/RecordAccessPage';

type Tree = { [key: string]: string | Tree };

/** The text at a dotted key, or undefined (a key that names a group is not a label). */
function textAt(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  return typeof node === 'string' && node.trim() !== '' ? node : undefined;
}

const languages = { es: es as Tree, en: en as Tree };

/**
 * Nothing raw: every code the server can put in front of a person — audit actions and
 * record types, the patient's access log, outbox templates and statuses, audit outcomes — has
 * words in both languages. The lists come from the shared package the server is typed by, so a
 * new action or template without a label fails here.
 */
describe.each(Object.entries(languages))('labels in %s', (_language, tree) => {
  it.each(auditActions)('audit action %s', (action) => {
    const label = textAt(tree, auditActionLabelKey(action));
    expect(label).toBeDefined();
    expect(label).not.toContain(action);
  });
  it.each(auditTargetTypes)('audit record type %s', (type) => {
    expect(textAt(tree, `audit.targetTypes.${type}`)).toBeDefined();
  });
  it.each(auditOutcomeSchema.options)('audit outcome %s', (outcome) => {
    expect(textAt(tree, `audit.outcome.${outcome}`)).toBeDefined();
  });
  it.each(recordAccessActions)('access-log action %s has its own words', (action) => {
    const key = recordAccessActionKey(action);
    expect(key).not.toBe('accessLog.actions.other');
    expect(textAt(tree, key)).toBeDefined();
  });
  it.each(emailTemplates)('outbox template %s', (template) => {
    expect(textAt(tree, `outbox.templates.${template}`)).toBeDefined();
  });
  it.each(outboxStatusSchema.options)('outbox status %s', (status) => {
    expect(textAt(tree, `outbox.status.${status}`)).toBeDefined();
  });
});
