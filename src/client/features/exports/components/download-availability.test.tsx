import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { DownloadAvailability } from './download-availability';

describe('DownloadAvailability', () => {
  test('a range out of order is refused with its message, and nothing is asked for', async () => {
    // no handler: a request would fail the test
    const { user } = renderWithApp(<DownloadAvailability />);
    await user.click(screen.getByRole('button', { name: 'Download' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-05-10' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The end date must be on or after the start date.',
    );
    expect(screen.getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '' } });
    // the alert already there changes its words once the form has checked the new value
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Choose a start and an end date.'),
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-05-01' } });
    expect(await screen.findByText('Choose at most 366 days.')).toBeVisible();
  });
});
