import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { ChangePasswordForm } from './change-password-form';

/** The message shown under a field, found by the id the field's aria-describedby names. */
const messageFor = (id: string) => document.getElementById(`${id}-message`);

function renderForm() {
  const view = renderWithApp(<ChangePasswordForm onChanged={vi.fn()} />);
  return {
    ...view,
    current: screen.getByLabelText('Current Password', { exact: true }),
    next: screen.getByLabelText('New Password', { exact: true }),
    confirm: screen.getByLabelText('Confirm New Password', { exact: true }),
    submit: screen.getByRole('button', { name: 'Change Password' }),
  };
}

describe('ChangePasswordForm', () => {
  test('each rule shows its message under its field, clears on edit, and nothing is sent', async () => {
    let sent = 0;
    server.use(
      http.put('/api/user/password', () => {
        sent += 1;
        return HttpResponse.json({ message: 'Password updated' });
      }),
    );
    const { user, current, next, confirm, submit } = renderForm();

    // everything empty
    await user.click(submit);
    expect(await screen.findByText('Current password is required')).toBeVisible();
    expect(messageFor('currentPassword')).toHaveTextContent('Current password is required');
    expect(messageFor('newPassword')).toHaveTextContent('New password is required');
    expect(messageFor('confirmPassword')).toHaveTextContent('Please confirm your new password');
    expect(current).toHaveAttribute('aria-invalid', 'true');

    // editing a field clears only that field's message
    await user.type(current, 'first-pass-123');
    expect(messageFor('currentPassword')).toBeNull();
    expect(messageFor('newPassword')).toBeVisible();
    await user.type(next, 'abc');
    expect(messageFor('newPassword')).toBeNull();
    expect(messageFor('confirmPassword')).toBeVisible();
    await user.type(confirm, 'abd');
    expect(messageFor('confirmPassword')).toBeNull();

    // too short, and not matching
    await user.click(submit);
    expect(await screen.findByText('New password must be at least 6 characters')).toBeVisible();
    expect(messageFor('confirmPassword')).toHaveTextContent('Passwords do not match');
    expect(messageFor('currentPassword')).toBeNull();

    // the same as the current one overrides the other new-password messages
    for (const field of [current, next, confirm]) {
      await user.clear(field);
      await user.type(field, 'abc');
    }
    await user.click(submit);
    expect(await screen.findByText('New password must be different from current password')).toBeVisible();
    expect(messageFor('confirmPassword')).toBeNull();
    expect(sent).toBe(0);
  });

  test('a wrong current password shows the server message in an Error toast, and the form stays', async () => {
    server.use(
      http.put('/api/user/password', () =>
        HttpResponse.json({ message: 'Current password is incorrect' }, { status: 400 }),
      ),
    );
    const { user, current, next, confirm, submit, history } = renderForm();
    await user.type(current, 'not-my-password');
    await user.type(next, 'second-pass-456');
    await user.type(confirm, 'second-pass-456');
    await user.click(submit);
    expect(await screen.findByText('Current password is incorrect')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(current).toHaveValue('not-my-password');
    expect(history).toEqual(['/']);
  });
});
