import { demoPassword } from './demo-accounts.js';

/**
 * A tiny API client for browser tests that need to act as another user
 * (e.g. an admin reading the email outbox): keeps cookies, sends the XSRF header.
 */
export class ApiSession {
  private cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    if (!this.cookies.has('XSRF-TOKEN')) {
      // The web client's first read hands out the XSRF cookie (health checks do not).
      this.remember(await fetch(`${this.baseUrl}/api/v1/config`));
    }
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '',
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    this.remember(response);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async signIn(email: string, password = demoPassword): Promise<void> {
    const answer = await this.request('POST', '/auth/login', { email, password });
    if (answer.status !== 200) {
      throw new Error(`Sign-in of ${email} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
  }
}

interface OutboxItem {
  id: string;
  to: string;
  subject: string;
  template: string;
  createdAt: string;
}

/**
 * Waits for the newest email to `to` (optionally of one template) in the outbox, read as the demo
 * admin, and returns its text version.
 */
export async function readLatestEmail(
  admin: ApiSession,
  to: string,
  template?: string,
  after = 0,
): Promise<{ subject: string; text: string; html: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await admin.request<{ data: OutboxItem[] }>(
      'GET',
      `/outbox?q=${encodeURIComponent(to)}&pageSize=50`,
    );
    const match = list.body.data
      .filter((item) => item.to === to && (!template || item.template === template))
      .filter((item) => Date.parse(item.createdAt) >= after)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))[0];
    if (match) {
      const message = await admin.request<{ subject: string; text: string; html: string }>(
        'GET',
        `/outbox/${match.id}`,
      );
      return message.body;
    }
    if (Date.now() > deadline) {
      throw new Error(`No email to ${to}${template ? ` (${template})` : ''} arrived in the outbox.`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The body of an answer below 300; anything else fails the journey, saying what was asked and what came back. */
export async function ok<T>(answer: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status >= 300) {
    throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
  return body;
}
