import { emailTemplates, type EmailTemplateName } from '@telemedicina/shared/email-templates';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EmailTemplate } from './templates.js';

/**
 * The shared list of template names (which the outbox labels in both languages) is exactly the
 * set the server renders: a template added to `EmailContent` without its name in the shared list
 * (hence without a label) fails the type check of this file.
 */
describe('email template names', () => {
  it('the shared list is the set of templates the server renders', () => {
    expectTypeOf<EmailTemplate>().toEqualTypeOf<EmailTemplateName>();
    expect(new Set(emailTemplates).size).toBe(emailTemplates.length);
  });
});
