import { describe, expect, it } from 'vitest';
import { mailDeliveryWarning } from './startup-warnings.js';

describe('mailDeliveryWarning', () => {
  it('warns a production start without SMTP that no email is delivered', () => {
    const warning = mailDeliveryWarning({ isProduction: true, smtpUrl: null });
    expect(warning).toMatch(/SMTP_URL is not set/);
    expect(warning).toMatch(/NOT delivered/);
    expect(warning).toMatch(/password reset/i);
  });

  it('says nothing with SMTP, or outside production', () => {
    expect(mailDeliveryWarning({ isProduction: true, smtpUrl: 'smtp://mail.example:587' })).toBeNull();
    expect(mailDeliveryWarning({ isProduction: false, smtpUrl: null })).toBeNull();
  });
});
