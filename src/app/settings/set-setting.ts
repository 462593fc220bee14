// `npm run settings -- set` (design.md#settings): one runtime setting's item written, twice-safe — the same
// value again writes no setting, the write is conditioned on the value read, and the command's op
// id (one per invocation) makes a replay answer the first answer. The value arrives checked by the
// parser the environment uses (src/settings/runtime-settings.ts, which the app layer cannot import).
import { fingerprint } from '../../domain/fingerprint.ts';
import type { WriteAction } from '../../store/actions.ts';
import { settingKey } from '../../store/keys.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { putSetting, toStoredSetting } from '../../store/setting-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { type Replayed, writeOnce } from '../write/write-once.ts';

export const SET_SETTING = 'settings:set';

export interface SetSettingInput {
  name: string;
  /** Already checked by the setting's parser. */
  value: string;
  /** The operator: the op record is theirs (OP#<actor>). */
  actor: string;
  op_id: string;
}

export interface SetSettingOutcome {
  name: string;
  value: string;
  /** The stored value before; null when none was stored (the environment's value applied). */
  previous: string | null;
  /** False when the value was already stored: nothing but the op record was written. */
  changed: boolean;
  at: string;
}

/** What the write adds beside the setting when it changes it (the announcing switch's audit record). */
export type AlongsideChange = (outcome: SetSettingOutcome) => WriteAction[];

export async function setSetting(
  ctx: AppContext,
  input: SetSettingInput,
  alongside: AlongsideChange = () => [],
): Promise<Replayed<SetSettingOutcome>> {
  const key = settingKey(input.name);
  return writeOnce<SetSettingOutcome>(ctx, {
    tool: SET_SETTING,
    caller: { account: input.actor, handle: input.actor },
    opId: input.op_id,
    fingerprint: fingerprint(SET_SETTING, { name: input.name, value: input.value }),
    reads: [key],
    plan(read, { now }) {
      const item = pick(read, key);
      const previous = item === undefined ? null : toStoredSetting(item).value;
      const at = new Date(now).toISOString();
      const outcome: SetSettingOutcome = { name: input.name, value: input.value, previous, changed: previous !== input.value, at };
      if (!outcome.changed) {
        // The same value again: only the op record, on the condition that the value is still the one read.
        return {
          outcome,
          actions: [],
          guards: [checkItem(key, { expression: '#value = :read', names: { '#value': 'value' }, values: { ':read': previous } })],
        };
      }
      const setting = { name: input.name, value: input.value, updated_at: at, updated_by: input.actor, op_id: input.op_id };
      return { outcome, actions: [putSetting(setting, previous ?? undefined), ...alongside(outcome)], guards: [] };
    },
  });
}
