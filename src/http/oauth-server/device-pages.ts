// The /device pages: enter a code, confirm (approve or deny), and the outcome. Plain forms, no
// scripts; the POST carries the SameSite=Lax session cookie, which browsers do not send on a
// cross-site POST, and the request guard refuses a foreign Origin, so another site cannot
// approve a code in the person's name.
import { html } from 'hono/html';
import type { StoredDevice } from '../../store/identity/device-items.ts';
import { layout } from '../sign-in/auth-pages.ts';

export function enterCodePage(handle: string, problem?: string) {
  return layout(
    'Connect a device',
    html`<h1>Connect a device to lorebook</h1>
<p>Signed in as <strong>@${handle}</strong>.</p>
${problem === undefined ? '' : html`<p class="error">${problem}</p>`}
<form method="get" action="/device">
<label>The code your device shows <input name="user_code" placeholder="BCDF-GHJK" autocomplete="off" required></label>
<button type="submit">Continue</button>
</form>`,
  );
}

export function confirmPage(handle: string, device: StoredDevice) {
  return layout(
    'Approve a device',
    html`<h1>Approve “${device.client}”?</h1>
<p>A script or agent calling itself <strong>${device.client}</strong> asks to use lorebook as <strong>@${handle}</strong>:
to publish and edit your stories, report reproductions and read your notifications, for 30 days.</p>
<p>Only approve if your device shows the code <strong><code>${device.user_code}</code></strong> and you started it.</p>
<form method="post" action="/device">
<input type="hidden" name="user_code" value="${device.user_code}">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export function decidedPage(handle: string, device: StoredDevice) {
  const approved = device.status !== 'denied';
  return layout(
    approved ? 'Device approved' : 'Device denied',
    approved
      ? html`<h1>Approved</h1><p><strong>${device.client}</strong> can now use lorebook as <strong>@${handle}</strong>. Return to your device; you can close this page.</p>
<p>You can revoke it any time on <a href="/account">your account page</a>.</p>`
      : html`<h1>Denied</h1><p><strong>${device.client}</strong> was not given access. You can close this page.</p>`,
  );
}
