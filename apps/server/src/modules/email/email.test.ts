import { createServer, type Server, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../../db/schema.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createMailer } from './mailer.js';
import { renderEmail, type EmailContent } from './templates.js';

const visit = {
  name: 'Ana',
  recipient: 'patient' as const,
  otherName: 'Dr. Luis',
  startsAt: new Date('2026-03-27T08:00:00Z'),
  timeZone: 'Europe/Madrid',
  link: 'https://clinic.test/appointments/1',
};

const contents: EmailContent[] = [
  { template: 'verify-email', data: { name: 'Ana', link: 'https://clinic.test/verify-email?token=abc' } },
  { template: 'reset-password', data: { name: 'Ana', link: 'https://clinic.test/reset-password?token=abc' } },
  {
    template: 'invitation',
    data: {
      name: 'Ana',
      link: 'https://clinic.test/accept-invitation?token=abc',
      inviterName: 'Luis',
      roleNames: ['Médico'],
    },
  },
  {
    template: 'registration-attempt',
    data: {
      name: 'Ana',
      signInLink: 'https://clinic.test/',
      resetLink: 'https://clinic.test/forgot-password',
    },
  },
  { template: 'password-changed', data: { name: 'Ana', resetLink: 'https://clinic.test/forgot-password' } },
  { template: 'appointment-booked', data: visit },
  {
    template: 'appointment-rescheduled',
    data: { ...visit, previousStartsAt: new Date('2026-03-26T08:00:00Z') },
  },
  { template: 'appointment-cancelled', data: { ...visit, cancelledBy: 'doctor', reason: 'Congreso' } },
  { template: 'appointment-reminder', data: { ...visit, reminder: '1h' } },
  {
    template: 'waitlist-slot-freed',
    data: {
      name: 'Ana',
      doctorName: 'Dr. Luis',
      startsAt: new Date('2026-03-27T08:00:00Z'),
      timeZone: 'Europe/Madrid',
      link: 'https://clinic.test/doctors/1',
    },
  },
  {
    template: 'visit-summary',
    data: {
      name: 'Ana',
      doctorName: 'Dr. Luis',
      startsAt: new Date('2026-03-27T08:00:00Z'),
      timeZone: 'Europe/Madrid',
      link: 'https://clinic.test/admin/appointments/1',
    },
  },
  {
    template: 'intake-forms-due',
    data: {
      name: 'Ana',
      count: 2,
      startsAt: new Date('2026-03-27T08:00:00Z'),
      timeZone: 'Europe/Madrid',
      link: 'https://clinic.test/portal/appointments/1',
    },
  },
];

describe('email templates', () => {
  it.each(contents.map((content) => [content.template, content] as const))(
    'renders %s in Spanish and in English, as HTML and text with the link',
    (_template, content) => {
      const es = renderEmail(content, 'es', 'Clínica Sol');
      const en = renderEmail(content, 'en', 'Clínica Sol');
      expect(es.subject).not.toBe(en.subject);
      expect(es.subject).toContain('Clínica Sol');
      expect(es.html).toMatch(/^<!doctype html><html lang="es">/);
      expect(en.html).toMatch(/<html lang="en">/);
      expect(es.text).toContain('Hola, Ana:');
      expect(en.text).toContain('Hello Ana,');
      const link = 'link' in content.data ? content.data.link : content.data.resetLink;
      for (const rendered of [es, en]) {
        expect(rendered.text).toContain(link);
        expect(rendered.html).toContain(`href="${link}"`);
        expect(rendered.html).not.toContain('<script');
      }
    },
  );

  it.each(contents.map((content) => [content.template, content] as const))(
    'addresses the reader as usted in the Spanish %s (no tú forms in subject, text or HTML)',
    (_template, content) => {
      const es = renderEmail(content, 'es', 'Clínica Sol');
      const tuForms =
        /\b(tu|tus|te|ti|tienes|puedes|pediste|fuiste|creaste|esperabas|olvidaste|registrarte|confirma|restablece|restablécela|elige|crea|ignora|avisa|copia)\b/i;
      for (const part of [es.subject, es.text, es.html.replace(/<[^>]*>/g, ' ')]) {
        expect(part).not.toMatch(tuForms);
      }
    },
  );

  it('escapes what users typed (names) in the HTML', () => {
    const rendered = renderEmail(
      {
        template: 'verify-email',
        data: { name: '<img src=x onerror=alert(1)> "Eve"', link: 'https://clinic.test/v?token=a&b=c' },
      },
      'en',
      'Clinic',
    );
    expect(rendered.html).not.toContain('<img src=x');
    expect(rendered.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Eve&quot;');
    expect(rendered.html).toContain('href="https://clinic.test/v?token=a&amp;b=c"');
    expect(rendered.text).toContain('<img src=x onerror=alert(1)>');
  });
});

/** A minimal SMTP server that accepts everything and keeps the raw messages. */
function startSmtpCatcher(): Promise<{ port: number; messages: string[]; server: Server }> {
  const messages: string[] = [];
  const server = createServer((socket: Socket) => {
    socket.write('220 catcher ESMTP\r\n');
    let buffer = '';
    let data: string[] | null = null;
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let end = buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data.join('\n'));
            data = null;
            socket.write('250 2.0.0 queued\r\n');
          } else {
            data.push(line);
          }
        } else {
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === 'EHLO' || verb === 'HELO') {
            socket.write('250-catcher\r\n250 8BITMIME\r\n');
          } else if (verb === 'DATA') {
            data = [];
            socket.write('354 go ahead\r\n');
          } else if (verb === 'QUIT') {
            socket.end('221 bye\r\n');
          } else {
            socket.write('250 OK\r\n');
          }
        }
        end = buffer.indexOf('\r\n');
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address !== null ? address.port : 0, messages, server });
    });
  });
}

describe('mailer', () => {
  let context: TestContext;
  let catcher: Awaited<ReturnType<typeof startSmtpCatcher>>;

  beforeAll(async () => {
    context = await createTestContext();
    catcher = await startSmtpCatcher();
  });

  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => catcher?.server.close(resolve));
  });

  const message = {
    to: 'destino@example.test',
    language: 'es' as const,
    template: 'verify-email',
    subject: 'Confirme su correo',
    html: '<p>Hola</p>',
    text: 'Hola',
  };

  async function rowOf(id: string) {
    const [row] = await context.db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
    return row;
  }

  it('without SMTP, keeps messages in the outbox as stored', async () => {
    const id = await context.app.services.mailer.send(message);
    expect(await rowOf(id)).toMatchObject({
      status: 'stored',
      toAddress: 'destino@example.test',
      sentAt: null,
    });
  });

  it('with SMTP, sends in the background and records sent', async () => {
    const mailer = createMailer({
      db: context.db,
      smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
      from: 'Clínica <no-reply@clinic.test>',
      now: () => new Date(),
      logger: context.app.log,
    });
    try {
      const id = await mailer.send(message);
      expect((await rowOf(id))?.status).toBe('queued');
      await mailer.idle();
      expect(await rowOf(id)).toMatchObject({
        status: 'sent',
        error: null,
        attempts: 1,
        sentAt: expect.any(Date),
      });
      const raw = catcher.messages.at(-1) ?? '';
      expect(raw).toMatch(/^Subject: Confirme su correo$/m);
      expect(raw).toMatch(/^To: destino@example\.test$/m);
      expect(raw).toContain('no-reply@clinic.test');
    } finally {
      await mailer.close();
    }
  });

  it('with SMTP, sends attachments (calendar invitations) along', async () => {
    const mailer = createMailer({
      db: context.db,
      smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
      from: 'no-reply@clinic.test',
      now: () => new Date(),
      logger: context.app.log,
    });
    try {
      await mailer.send({
        ...message,
        attachments: [
          {
            filename: 'cita.ics',
            contentType: 'text/calendar; charset=utf-8; method=REQUEST',
            content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n',
          },
        ],
      });
      await mailer.idle();
      const raw = catcher.messages.at(-1) ?? '';
      expect(raw).toMatch(/^Content-Type: text\/calendar; charset=utf-8; method=REQUEST/m);
      expect(raw).toContain('filename=cita.ics');
    } finally {
      await mailer.close();
    }
  });

  it('with SMTP, delivers the link secret and the clinical file; the outbox row keeps neither', async () => {
    const mailer = createMailer({
      db: context.db,
      smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
      from: 'no-reply@clinic.test',
      now: () => new Date(),
      logger: context.app.log,
    });
    const secret = 'S3cr3t-Token_value-0123456789';
    const pdf = Buffer.from('%PDF-1.7 plan: amoxicilina 500 mg; fecha de nacimiento 1990-04-12');
    try {
      const id = await mailer.send({
        ...message,
        subject: 'Resumen',
        text: `Abra https://clinic.test/reset-password?token=${secret} ahora`,
        html: `<a href="https://clinic.test/reset-password?token=${secret}">Abrir</a>`,
        attachments: [
          {
            filename: 'resumen.pdf',
            contentType: 'application/pdf',
            content: pdf.toString('base64'),
            encoding: 'base64',
            isClinical: true,
          },
        ],
      });
      await mailer.idle();
      const raw = catcher.messages.at(-1) ?? '';
      // Quoted-printable text: undo soft breaks and escaped '=' to read the link.
      expect(raw.replace(/=\n/g, '').replace(/=3D/g, '=')).toContain(`reset-password?token=${secret}`);
      expect(raw.replace(/\s+/g, '')).toContain(pdf.toString('base64'));
      const row = await rowOf(id);
      expect(row?.status).toBe('sent');
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row?.text).toBe('Abra https://clinic.test/reset-password?token=[hidden] ahora');
      expect(row?.attachments).toEqual([
        {
          filename: 'resumen.pdf',
          contentType: 'application/pdf',
          content: '',
          size: pdf.length,
          isClinical: true,
        },
      ]);
    } finally {
      await mailer.close();
    }
  });

  it('records failed with the error when the SMTP server cannot be reached', async () => {
    const closed = await startSmtpCatcher();
    const port = closed.port;
    await new Promise((resolve) => closed.server.close(resolve));
    const mailer = createMailer({
      db: context.db,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'no-reply@clinic.test',
      now: () => new Date(),
      logger: context.app.log,
    });
    try {
      const id = await mailer.send(message);
      await mailer.idle();
      const row = await rowOf(id);
      expect(row?.status).toBe('failed');
      expect(row?.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await mailer.close();
    }
  });
});
