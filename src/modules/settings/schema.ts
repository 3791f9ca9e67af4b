import { Type } from 'typebox';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { Timestamp } from '../../platform/http/schema-types.ts';
import { MAX_VALUE_BYTES, SETTING_KEY_PATTERN } from './service.ts';

export const Setting = Type.Object({ key: Type.String(), value: Type.String(), updated_at: Timestamp });

export const SettingEnvelope = Type.Object({ setting: Setting });
export const SettingList = Type.Object({ settings: Type.Array(Setting) });
export const SettingDeleted = deletedEnvelope('setting');

export const UpsertSettingBody = Type.Object(
  {
    key: Type.String({
      pattern: SETTING_KEY_PATTERN,
      description: 'lower-case letters, digits, `_ . -`; at most 100 characters',
    }),
    // Characters here; the service also caps the UTF-8 size at the same number of bytes.
    value: Type.String({ maxLength: MAX_VALUE_BYTES, description: 'at most 64 KiB (UTF-8)' }),
  },
  { additionalProperties: false },
);

/** Path parameter `{key}`: bounded like IdParams; a malformed key is simply not found. */
export const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) });
