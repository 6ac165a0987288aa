/** A minimal API client for system tests and the load script: one cookie, JSON in and out. */

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  cookie = '';
  constructor(readonly baseUrl: string) {}

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('afp_session='));
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? '';
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Sign in (staff through the staff login) and keep the session cookie; throws when refused. */
  async login(username: string, password: string, options: { staff?: boolean } = {}): Promise<this> {
    const path = options.staff ? '/api/auth/staff-login' : '/api/login';
    const response = await this.request('POST', path, { username, password });
    if (response.status !== 200)
      throw new Error(`login ${username}: ${response.status} ${JSON.stringify(response.body)}`);
    return this;
  }
}
