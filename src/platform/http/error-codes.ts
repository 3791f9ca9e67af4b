/** The error types, as in Medusa v2; the status of a response comes from its type. */
export const ERROR_STATUS = {
  invalid_data: 400,
  not_allowed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  duplicate_error: 422,
  too_many_requests: 429,
  unknown_error: 500,
  bad_gateway: 502,
  gateway_timeout: 504,
  service_unavailable: 503,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

/**
 * The error table: every error the API answers with, by code. The code is what a client switches
 * on; it is sent as `code` beside `{ type, message }`, listed in /openapi.json (the `Error` schema)
 * and on docs/errors.md. The status follows from the type. `{name}` in a message is filled from the
 * parameters given where the error is raised (`errors.notFound('webhook_not_found', { id })`).
 *
 * Codes are lowercase snake_case because the same `code` field already carries Medusa's own codes
 * (`invalid_request_error`, `insufficient_inventory`, `unknown_error`), which clients of Medusa
 * read; one spelling in one field. A code, once published, keeps its meaning: rename a message
 * freely, never a code. Sections follow the modules; add new codes to your module's section.
 */
export const ERROR_CODES = {
  // platform: request parsing, validation and the database backstop
  malformed_json: { type: 'invalid_data', message: 'Malformed JSON in request body: {detail}' },
  invalid_value: { type: 'invalid_data', message: 'Invalid value in request' },
  unsafe_input: { type: 'invalid_data', message: '{problem}' },
  invalid_field_selection: { type: 'invalid_data', message: "Invalid field in 'fields': {token}" },
  invalid_date_filter: {
    type: 'invalid_data',
    message: "Invalid request (query): Field '{field}' must be a date or date-time between the years 1 and 9999",
  },
  invalid_amount: { type: 'invalid_data', message: "Invalid request: Expected type: 'integer' for field '{field}'" },
  amount_not_finite: { type: 'invalid_data', message: '{field} must be a finite number' },
  amount_too_precise: {
    type: 'invalid_data',
    message: '{field} {amount} has more decimal places than {currency} allows ({exponent})',
  },
  amount_too_large: { type: 'invalid_data', message: '{field} {amount} is too large' },
  // Medusa answers every duplicate with this code; kept for the database's unique-key backstop.
  invalid_request_error: { type: 'duplicate_error', message: 'A record with these values already exists' },
  write_conflict: {
    type: 'conflict',
    message: 'The request collided with a concurrent change and was not applied; send it again',
  },
  database_unavailable: {
    type: 'service_unavailable',
    message: 'Temporarily unavailable (the database cannot be reached); retry shortly',
  },
  shutting_down: { type: 'service_unavailable', message: 'This instance is shutting down; retry on another' },
  not_ready: { type: 'service_unavailable', message: 'Not ready: {problems}' },
  too_many_requests: { type: 'too_many_requests', message: 'Too many requests, retry later' },
  too_many_large_pages: {
    type: 'service_unavailable',
    message: 'Too many large pages are being prepared; retry shortly',
  },
  unknown_error: { type: 'unknown_error', message: 'An unknown error occurred.' },
  // platform: authentication and cross-site protection
  unauthorized: { type: 'unauthorized', message: 'Unauthorized' },
  forbidden: { type: 'forbidden', message: 'You are not allowed to perform this action' },
  cross_site_refused: { type: 'forbidden', message: 'Cross-site request refused' },
  cookie_write_not_json: { type: 'forbidden', message: 'A cookie-authenticated write must be sent as JSON' },
  csrf_token_invalid: { type: 'forbidden', message: 'Missing or invalid CSRF token' },
  // api-keys
  publishable_key_missing: {
    type: 'not_allowed',
    message:
      'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.',
  },
  publishable_key_invalid: {
    type: 'unauthorized',
    message: 'A valid publishable key is required to proceed with the request',
  },
  api_key_not_found: { type: 'not_found', message: 'API key with id: {id} not found' },
  api_key_already_revoked: { type: 'invalid_data', message: 'API key with id: {id} is already revoked' },
  api_key_not_revoked: { type: 'not_allowed', message: 'Cannot delete api keys that are not revoked - {id}' },
  api_key_not_publishable: {
    type: 'invalid_data',
    message: 'Sales channels can only be associated with publishable API keys',
  },
  sales_channels_missing: { type: 'invalid_data', message: 'Sales channels with IDs {ids} do not exist' },
  // categories, collections, product labels (types and tags)
  category_not_found: { type: 'not_found', message: 'Product category with id: {id} was not found' },
  category_handle_taken: { type: 'invalid_data', message: 'Product category with handle: {handle}, already exists.' },
  category_cycle: {
    type: 'invalid_data',
    message: 'A category cannot be moved under itself or one of its descendants',
  },
  category_has_children: {
    type: 'not_allowed',
    message: 'Deleting ProductCategory ({id}) with category children is not allowed',
  },
  collection_not_found: { type: 'not_found', message: 'Product collection with id: {id} was not found' },
  collection_handle_taken: {
    type: 'invalid_data',
    message: 'Product collection with handle: {handle}, already exists.',
  },
  product_label_not_found: { type: 'not_found', message: '{noun} with id: {id} was not found' },
  product_label_taken: { type: 'invalid_data', message: '{noun} with value: {value}, already exists.' },
  // messaging, notifications
  notification_not_found: { type: 'not_found', message: 'Notification with id: {id} not found' },
  notification_template_not_found: { type: 'not_found', message: 'Notification template {name} was not found' },
  notification_delivery_not_found: {
    type: 'not_found',
    message: 'Notification delivery with id: {id} was not found',
  },
  notification_delivery_sent: { type: 'not_allowed', message: 'Notification delivery {id} was already sent' },
  // sales channels
  sales_channel_not_found: { type: 'not_found', message: 'Sales channel with id: {id} not found' },
  products_missing: { type: 'invalid_data', message: 'Products with IDs {ids} do not exist' },
  // settings
  setting_not_found: { type: 'not_found', message: 'Setting with key: {key} not found' },
  setting_key_invalid: { type: 'invalid_data', message: "Invalid request: Field 'key' must match {pattern}" },
  setting_value_too_large: {
    type: 'invalid_data',
    message: "Invalid request: Field 'value' must be at most {max} bytes",
  },
  // uploads
  file_not_found: { type: 'not_found', message: 'File with id: {id} was not found' },
  file_content_not_found: { type: 'not_found', message: 'File not found' },
  file_type_refused: { type: 'invalid_data', message: 'File {filename} is not an accepted image ({accepted})' },
  file_too_large: { type: 'payload_too_large', message: 'A file is larger than {max} bytes' },
  too_many_files: { type: 'invalid_data', message: 'Upload at most {max} files at once' },
  upload_unreadable: { type: 'invalid_data', message: 'Invalid multipart upload: {detail}' },
  upload_not_multipart: {
    type: 'invalid_data',
    message: "Invalid request: send multipart/form-data with the images in 'files'",
  },
  upload_unknown_field: { type: 'invalid_data', message: "Invalid request: Unrecognized fields: '{field}'" },
  upload_filename_nul: { type: 'invalid_data', message: 'Invalid request: a file name contains a NUL character' },
  upload_files_required: { type: 'invalid_data', message: "Invalid request: Field 'files' is required" },
  // webhooks
  webhook_not_found: { type: 'not_found', message: 'Webhook with id: {id} not found' },
  webhook_delivery_not_found: { type: 'not_found', message: 'Webhook delivery with id: {id} not found' },
  webhook_events_unknown: {
    type: 'invalid_data',
    message: "Invalid request: Field 'events' has unknown event names: {names}",
  },
  webhook_url_invalid: { type: 'invalid_data', message: "Invalid request: Field 'url' {problem}" },
  webhook_inactive: {
    type: 'not_allowed',
    message: 'Webhook with id: {id} is not active; activate it before retrying deliveries',
  },
} as const satisfies Record<string, { type: ErrorType; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
