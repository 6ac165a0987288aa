import type { AssuranceResponse } from '@shared/schemas/data-protection';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { AssurancePage } from './assurance-page';

const answer: AssuranceResponse = {
  statement: 'We confirm these checks.',
  generatedAt: '2026-04-01T10:00:00.000Z',
  sessions: [
    {
      bookingId: 7,
      date: '2026-03-05',
      startTime: '09:00',
      endTime: '12:00',
      school: 'Hill School',
      address: '',
      session: 'Drama',
      person: {
        userId: 3,
        name: 'Riya Rao',
        hasPhoto: false,
        recordedOn: '2026-03-01',
        dbs: {
          certificate: '********2222',
          issueDate: '2026-02-20',
          enhancedWithBarredList: true,
          onUpdateService: false,
          statusCheckedOn: null,
        },
        checks: [{ type: 'First aid', validUntil: '2027-01-31' }],
        status: { state: 'valid', checks: [], reasons: [] },
      },
    },
  ],
};

describe('AssurancePage', () => {
  test('shows each session’s checks, in the shared words', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/staff/assurance', ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(answer);
      }),
      http.get('/api/staff/assurance/statement', () =>
        HttpResponse.json({ statement: answer.statement, updatedAt: null }),
      ),
    );
    renderWithApp(
      <AssurancePage
        query={{ from: '2026-03-01', to: '2026-03-31', school: 'Hill School' }}
        today="2026-04-01"
        onQuery={() => {}}
      />,
    );
    const session = await screen.findByRole('region', { name: '5 March 2026: Riya Rao' });
    expect(
      within(session).getByRole('heading', { name: '5 March 2026, 09:00–12:00 · Hill School' }),
    ).toBeVisible();
    const value = (label: string) => within(session).getByText(label).nextElementSibling?.textContent;
    expect(value('Certificate number')).toBe('********2222');
    expect(value('On the Update Service')).toBe('No');
    expect(value('Update Service status checked')).toBe('Not recorded');
    expect(value('First aid')).toBe('valid until 31 January 2027');
    expect(value('Checks on the session’s day')).toBe('In date');
    expect(value('As recorded on')).toBe('1 March 2026');
    expect(asked).toEqual(['?from=2026-03-01&to=2026-03-31&school=Hill+School']);
    expect(screen.getByRole('button', { name: 'Print' })).toBeVisible();
  });

  test('downloads the PDF of the same query, and shows a refusal as a message', async () => {
    const pdfAsked: string[] = [];
    let refuse = false;
    server.use(
      http.get('/api/staff/assurance', () => HttpResponse.json(answer)),
      http.get('/api/staff/assurance/statement', () =>
        HttpResponse.json({ statement: answer.statement, updatedAt: null }),
      ),
      http.get('/api/staff/assurance/pdf', ({ request }) => {
        pdfAsked.push(new URL(request.url).search);
        if (refuse) {
          return HttpResponse.json(
            { statusCode: 429, error: 'Too Many Requests', message: 'Too many downloads: try again shortly' },
            { status: 429 },
          );
        }
        return new HttpResponse('%PDF-1.3', {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': 'attachment; filename="assurance-2026-03-01-to-2026-03-31.pdf"',
          },
        });
      }),
    );
    const { user } = renderWithApp(
      <AssurancePage
        query={{ from: '2026-03-01', to: '2026-03-31' }}
        today="2026-04-01"
        onQuery={() => {}}
      />,
    );
    await user.click(await screen.findByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('PDF downloaded')).toBeVisible();
    expect(pdfAsked).toEqual(['?from=2026-03-01&to=2026-03-31']);

    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await screen.findByText('Too many downloads: try again shortly')).toBeVisible();
  });
});
