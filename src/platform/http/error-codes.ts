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
 * A code raised where different facts are known has one template per set of facts: the site's
 * parameters pick the template whose holes they fill (`insufficient_inventory` names the item and
 * location where those are known, and says only "some variant" at a cart).
 *
 * Codes are lowercase snake_case because the same `code` field already carries Medusa's own codes
 * (`invalid_request_error`, `insufficient_inventory`, `unknown_error`), which clients of Medusa
 * read; one spelling in one field. A code, once published, keeps its meaning: rename a message
 * freely, never a code. Sections follow the modules; add new codes to your module's section.
 */
export const ERROR_CODES = {
  // platform: request parsing, validation and the database backstop
  malformed_json: { type: 'invalid_data', message: 'Malformed JSON in request body: {detail}' },
  // The route's schema refused the request; `where` is empty for the body, else " (query)" etc.
  invalid_request: { type: 'invalid_data', message: 'Invalid request{where}: {problems}' },
  route_not_found: { type: 'not_found', message: 'Route {method} {path} not found' },
  // Fastify's own refusals of a body, in its words.
  body_too_large: { type: 'payload_too_large', message: 'Request body is too large' },
  unsupported_media_type: { type: 'unsupported_media_type', message: 'Unsupported Media Type' },
  content_length_mismatch: { type: 'invalid_data', message: 'Request body size did not match Content-Length' },
  empty_json_body: {
    type: 'invalid_data',
    message: "Body cannot be empty when content-type is set to 'application/json'",
  },
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
  // Medusa answers every duplicate with this code, whatever the message says: its clients read it.
  invalid_request_error: { type: 'duplicate_error', message: '{detail}' },
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
  publishable_key_without_channel: {
    type: 'not_allowed',
    message: 'Publishable key needs to have a sales channel configured',
  },
  sales_channel_not_in_key: {
    type: 'invalid_data',
    message: 'Requested sales channel is not part of the publishable key',
  },
  // auth: admin sign-in, the admin guard (tokens, API keys, permissions), password resets
  invalid_credentials: { type: 'unauthorized', message: 'Invalid email or password' },
  sign_in_unavailable: { type: 'service_unavailable', message: 'Sign-in is unavailable for a moment; retry shortly' },
  user_email_taken: { type: 'invalid_data', message: 'User with email {email} already exists' },
  reset_token_invalid: { type: 'unauthorized', message: 'Invalid or expired token' },
  token_scope_missing: { type: 'forbidden', message: 'This token lacks the {scope} scope' },
  vendor_route_refused: { type: 'forbidden', message: 'Vendors may not use this route' },
  permission_missing: { type: 'forbidden', message: 'Your role lacks the permission {permission}' },
  owner_only_route: { type: 'forbidden', message: 'Only an owner may use a route that declares no permission' },
  // carts
  cart_not_found: { type: 'not_found', message: "Cart with id '{id}' not found" },
  cart_completed: { type: 'invalid_data', message: 'Cart {id} is already completed.' },
  // Medusa's wording for a sales channel the key does not allow, or none where the key has several.
  cart_sales_channel_invalid: {
    type: 'invalid_data',
    message: 'Provided request body contains errors. Please check the data and retry the request',
  },
  cart_region_required: { type: 'invalid_data', message: 'No region_id was given and the store has no region' },
  cart_currency_mismatch: {
    type: 'invalid_data',
    message: 'Currency code {currency} does not match the currency of region {region} ({region_currency})',
  },
  cart_country_outside_region: {
    type: 'invalid_data',
    message: 'Country with code {country} is not within region {region}',
  },
  cart_too_many_lines: {
    type: 'invalid_data',
    message: 'A cart can have at most {max} line items: add to an existing line or remove one first',
  },
  line_item_not_found: { type: 'not_found', message: 'Line item with id: {id} was not found' },
  variants_unavailable: {
    type: 'invalid_data',
    message: 'Variants {ids} do not exist or belong to a product that is not published',
  },
  variants_unpriced: { type: 'invalid_data', message: 'Variants with IDs {ids} do not have a price' },
  // Medusa's code, in Medusa's words where it raises it: its cart workflow's at a cart's write and at
  // completion (no parameters), its inventory module's at a reservation ({item}, {location}); a
  // fulfilment taking stock from another location says how much that location has.
  insufficient_inventory: {
    type: 'not_allowed',
    message: [
      'Some variant does not have the required inventory',
      'Not enough stock available for item {item} at location {location}',
      'Location {location} has {available} of item {item} available, {asked} asked',
    ],
  },
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
  // checkout: shipping methods, payment sessions and webhooks, promotion codes, completion
  cart_region_missing: { type: 'invalid_data', message: 'Region with id {id} not found' },
  shipping_option_not_found: { type: 'not_found', message: 'Shipping option with id: {id} was not found' },
  shipping_option_not_for_cart: { type: 'invalid_data', message: 'Shipping option {id} is not available for the cart' },
  shipping_options_invalid_for_cart: { type: 'invalid_data', message: 'Shipping Options are invalid for cart.' },
  shipping_option_gone: { type: 'invalid_data', message: 'Shipping option {id} is no longer available: {next}' },
  shipping_price_changed: {
    type: 'invalid_data',
    message: 'The price of shipping option {id} changed since it was chosen: {next} to see the new total',
  },
  // The cart kept changing while the option's provider priced it (quotes are asked with no lock held).
  cart_changed_while_quoting: {
    type: 'conflict',
    message: 'The cart changed while shipping option {id} was being priced; send the request again',
  },
  promotion_code_not_found: { type: 'invalid_data', message: 'The promotion code {code} is invalid' }, // Medusa 2.21's words
  promotion_code_inactive: { type: 'invalid_data', message: 'The promotion code {code} is not active' },
  promotion_code_not_started: {
    type: 'invalid_data',
    message: 'The promotion code {code} is not valid yet: its campaign has not started',
  },
  promotion_code_expired: {
    type: 'invalid_data',
    message: 'The promotion code {code} has expired: its campaign has ended',
  },
  promotion_code_budget_used: {
    type: 'invalid_data',
    message: 'The promotion code {code} has used up its campaign budget',
  },
  promotion_code_rules_unmet: {
    type: 'invalid_data',
    message: 'The promotion code {code} cannot be applied to this cart: its rules do not match the cart',
  },
  cart_empty: { type: 'invalid_data', message: 'Cannot complete a cart with no items' },
  cart_email_missing: {
    type: 'invalid_data',
    message: 'Cannot complete a cart without an email: set one with POST {route}',
  },
  payment_session_required: { type: 'invalid_data', message: 'Payment sessions are required to complete cart' },
  payment_session_not_offered: {
    type: 'invalid_data',
    message:
      "Payment provider {id} is not offered in the cart's region: create a payment session again with POST {route}",
  },
  cart_changed_during_authorization: {
    type: 'conflict',
    message: 'The cart changed while its payment was being authorized: complete it again',
  },
  payment_webhook_not_raw: { type: 'invalid_data', message: 'Expected the raw body of a payment webhook' },
  payment_webhooks_not_taken: {
    type: 'not_found',
    message: 'Payment provider {id} is not running or takes no webhooks',
  },
  payment_webhook_refused: { type: 'invalid_data', message: 'Webhook not accepted by {id}: {detail}' },
  // locales
  locale_not_found: { type: 'not_found', message: 'Locale with code: {code} was not found' },
  // refund reasons
  refund_reason_not_found: { type: 'not_found', message: 'Refund reason with id: {id} was not found' },
  refund_reason_code_taken: { type: 'invalid_data', message: 'Refund reason with code: {code}, already exists.' },
  // customers: accounts, their addresses, store sign-in
  customer_not_found: { type: 'not_found', message: 'Customer with id: {id} not found' },
  customer_address_not_found: { type: 'not_found', message: 'Customer address with id: {id} was not found' },
  customer_already_authenticated: { type: 'invalid_data', message: 'Request already authenticated as a customer.' },
  customer_email_mismatch: {
    type: 'invalid_data',
    message: "Invalid request: Field 'email' must be the email the account was registered with",
  },
  identity_exists: { type: 'unauthorized', message: 'Identity with email already exists' },
  // federation: the shop as a client of the marketplace
  federation_not_connected: {
    type: 'invalid_data',
    message: 'This shop is not connected to a marketplace (SERVICE_FEDERATION_URL)',
  },
  federation_not_configured: {
    type: 'not_allowed',
    message: 'This shop is not federated with a marketplace (set SERVICE_FEDERATION_URL and SERVICE_FEDERATION_PK)',
  },
  federation_not_installed_from_marketplace: {
    type: 'invalid_data',
    message: '{id} is not installed from the marketplace on this shop',
  },
  federation_plugin_not_in_folder: { type: 'not_found', message: 'No plugin {id} in the plugins folder' },
  federation_plugin_not_in_marketplace: { type: 'not_found', message: 'No plugin {id} in the marketplace' },
  // A call to the marketplace failed (unreachable, refused, an artifact too large): what went wrong.
  federation_upstream_failed: { type: 'bad_gateway', message: '{detail}' },
  // The marketplace's own 404 or 400, its message passed on.
  federation_upstream_not_found: { type: 'not_found', message: '{detail}' },
  federation_upstream_refused: { type: 'invalid_data', message: '{detail}' },
  federation_callback_not_json: { type: 'invalid_data', message: 'Invalid request: the body is not valid JSON' },
  // messaging, notifications
  notification_not_found: { type: 'not_found', message: 'Notification with id: {id} not found' },
  notification_template_not_found: { type: 'not_found', message: 'Notification template {name} was not found' },
  notification_delivery_not_found: {
    type: 'not_found',
    message: 'Notification delivery with id: {id} was not found',
  },
  notification_delivery_sent: { type: 'not_allowed', message: 'Notification delivery {id} was already sent' },
  // payments: the ledger, provider calls
  payment_not_found: { type: 'not_found', message: 'Payment with id: {id} was not found' },
  payment_operation_pending: {
    type: 'conflict',
    message: "A {kind} of {amount} is waiting for {provider}'s answer: repeat it to settle it first",
  },
  payment_canceled: { type: 'not_allowed', message: 'Payment {id} has been canceled: there is nothing to capture' },
  payment_fully_captured: { type: 'not_allowed', message: 'Payment {id} is already fully captured' },
  capture_exceeds_authorized: {
    type: 'not_allowed',
    message: 'You cannot capture more than the authorized amount substracted by what is already captured.',
  },
  payment_not_captured: {
    type: 'not_allowed',
    message: 'Payment {id} has not been captured: there is nothing to refund',
  },
  payment_providers_not_found: { type: 'invalid_data', message: 'Payment providers with ids {ids} not found' },
  payment_provider_unavailable: {
    type: 'not_allowed',
    message:
      "Payment provider {id} is not installed or not running: install or enable its plugin, or settle this payment in the processor's dashboard",
  },
  payment_provider_error: { type: 'not_allowed', message: '{id} refused: {detail}' },
  payment_provider_timeout: { type: 'gateway_timeout', message: '{id} did not answer within {ms} ms' },
  // plugins: install, update, configuration, the routes plugins serve
  plugin_not_found: { type: 'not_found', message: 'Plugin with id: {id} not found' },
  plugin_marketplace_id_invalid: {
    type: 'invalid_data',
    message: 'Invalid request: Field \'marketplace_id\' must look like @vendor/plugin-id, got "{value}"',
  },
  plugin_version_invalid: {
    type: 'invalid_data',
    message: 'Invalid request: Field \'version\' must be dotted numeric (e.g. 1.2.0), got "{value}"',
  },
  plugin_already_installed: {
    type: 'conflict',
    message: 'Plugin {id} is already installed (status: {status}); uninstall it first or update it',
  },
  plugin_manifest_id_taken: {
    type: 'conflict',
    message: "Plugin {id} already uses the manifest id '{manifest_id}'; uninstall it first",
  },
  plugin_install_in_progress: { type: 'conflict', message: 'Plugin {id} is already being installed' },
  plugin_no_pending_update: { type: 'conflict', message: 'Plugin {id} has no update waiting for approval' },
  plugin_pending_version_mismatch: {
    type: 'conflict',
    message: 'Plugin {id} waits for approval of version {pending}, not {version}',
  },
  plugin_changed_meanwhile: { type: 'conflict', message: 'Plugin {id} changed meanwhile; try again' },
  plugin_not_installed_yet: { type: 'conflict', message: 'Plugin {id} is not installed yet (status: {status})' },
  plugin_not_updatable: {
    type: 'conflict',
    message: 'Plugin {id} is {status}; only an installed plugin can be updated',
  },
  plugin_version_not_newer: {
    type: 'invalid_data',
    message: 'Invalid request: Version {version} is not newer than the installed {installed}',
  },
  plugin_no_admin_extension: { type: 'not_found', message: 'Plugin {id} has no admin extension' },
  plugin_config_required: { type: 'invalid_data', message: "Invalid request: Config field '{key}' is required" },
  plugin_config_type: { type: 'invalid_data', message: "Invalid request: Config field '{key}' must be a {type}" },
  plugin_config_too_long: {
    type: 'invalid_data',
    message: "Invalid request: Config field '{key}' must be at most {max} characters",
  },
  plugin_config_unknown: {
    type: 'invalid_data',
    message: "Invalid request: Unknown config field '{key}' (fields: {known})",
  },
  plugin_restarting: { type: 'service_unavailable', message: 'Plugin {id} is restarting; try again shortly' },
  plugin_route_timeout: { type: 'gateway_timeout', message: 'Plugin {id} did not answer within {ms} ms' },
  plugin_route_failed: { type: 'unknown_error', message: 'Plugin {id} failed to handle the request' },
  // products: products, variants, options, prices, images, the store's reads
  product_not_found: { type: 'not_found', message: 'Product with id: {id} was not found' },
  product_variant_not_found: { type: 'not_found', message: 'Variant with id: {id} was not found in product {product}' },
  variant_not_found: { type: 'not_found', message: 'Variant with id: {id} was not found' },
  product_option_not_found: { type: 'not_found', message: 'Product option with id: {id} was not found' },
  product_handle_taken: { type: 'invalid_data', message: 'Product with handle: {handle}, already exists.' },
  variant_sku_taken: { type: 'invalid_data', message: 'Product variant with sku: {sku}, already exists.' },
  variant_sku_duplicate: { type: 'invalid_data', message: 'Product variant with this sku already exists.' },
  variant_not_in_product: {
    type: 'invalid_data',
    message: 'Variant with id: {id} was not found in product {product}',
  },
  variant_listed_twice: { type: 'invalid_data', message: 'Variant with id: {id} is listed more than once' },
  variant_title_required: { type: 'invalid_data', message: "Field 'variants.{index}.title' is required" },
  image_not_in_product: { type: 'invalid_data', message: 'Image with id: {id} was not found in product {product}' },
  image_listed_twice: { type: 'invalid_data', message: 'Image with id: {id} is listed more than once' },
  images_not_in_product: {
    type: 'invalid_data',
    message: 'Images with ids {ids} do not belong to product {product}',
  },
  product_image_not_found: { type: 'not_found', message: 'Image with id: {id} was not found in product {product}' },
  variants_not_in_product: {
    type: 'invalid_data',
    message: 'Variants with ids {ids} do not belong to product {product}',
  },
  option_value_not_found: {
    type: 'not_found',
    message: 'Product option value with id: {id} was not found in option {option}',
  },
  option_value_in_use: {
    type: 'not_allowed',
    message: 'Value "{value}" of option "{option}" is used by variants {ids}: change them first',
  },
  product_option_product_required: {
    type: 'invalid_data',
    message:
      'A product option belongs to one product here: give product_id (options shared by products are not supported)',
  },
  link_targets_missing: { type: 'invalid_data', message: '{what} with ids {ids} do not exist' },
  product_batch_too_large: {
    type: 'invalid_data',
    message: 'A batch takes at most {max} items (create, update and delete together), got {count}',
  },
  price_currency_invalid: {
    type: 'invalid_data',
    message: 'Invalid currency_code: {currency} is not an ISO 4217 currency',
  },
  price_range_inverted: {
    type: 'invalid_data',
    message: 'Variant "{variant}" has a price whose max_quantity is below its min_quantity',
  },
  price_repeated: { type: 'invalid_data', message: 'Variant "{variant}" has more than one price in {currency}' },
  option_repeated: { type: 'invalid_data', message: 'Option "{option}" is declared more than once' },
  option_value_repeated: { type: 'invalid_data', message: 'Option "{option}" lists a value more than once' },
  variant_option_undeclared: {
    type: 'invalid_data',
    message: 'Variant "{variant}" uses option "{option}", which the product does not declare',
  },
  variant_option_value_unknown: {
    type: 'invalid_data',
    message: 'Variant "{variant}" uses value "{value}" for option "{option}", which is not one of its values',
  },
  pricing_region_not_found: {
    type: 'invalid_data',
    message: 'Region with id {id} not found when populating the pricing context',
  },
  // regions (the admin and the store word a missing region differently, as Medusa does)
  region_not_found: { type: 'not_found', message: 'Region with id: {id} not found' },
  store_region_not_found: { type: 'not_found', message: 'Region with id: {id} was not found' },
  region_reference_missing: { type: 'invalid_data', message: 'Region with id: {id} was not found' },
  region_currency_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'currency_code' must be a lower-case ISO 4217 currency code, got: '{value}'",
  },
  region_countries_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'countries' must hold ISO 3166-1 alpha-2 codes, got: {values}",
  },
  region_countries_repeated: {
    type: 'invalid_data',
    message: "Invalid request: Field 'countries' lists a country more than once: {values}",
  },
  region_countries_taken: {
    type: 'invalid_data',
    message: 'Countries with codes: {codes} are already assigned to a region',
  },
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
  // stores: the store and its currencies
  store_not_found: { type: 'not_found', message: 'Store with id: {id} was not found' },
  store_currency_required: { type: 'invalid_data', message: 'A store needs at least one supported currency' },
  currency_unknown: { type: 'invalid_data', message: 'Unknown currency code(s): {codes}' },
  store_currency_repeated: { type: 'invalid_data', message: 'A currency is listed more than once' },
  store_default_currency_repeated: { type: 'invalid_data', message: 'Only one currency can be the default' },
  sales_channel_reference_missing: { type: 'invalid_data', message: 'Sales channel with id: {id} was not found' },
  currency_not_found: { type: 'not_found', message: 'Currency with code: {code} was not found' },
  // promotions: promotions, their application methods and rules, campaigns and budgets (Medusa's words)
  promotion_not_found: { type: 'not_found', message: 'Promotion with id "{id}" not found' },
  promotion_amount_currency_required: { type: 'invalid_data', message: '{field} is required for an amount' },
  promotion_percentage_out_of_range: {
    type: 'invalid_data',
    message: 'Application Method value should be a percentage number between 0 and 100',
  },
  promotion_buyget_apply_quantity_required: {
    type: 'invalid_data',
    message: 'apply_to_quantity is a required field for Promotion type of buyget',
  },
  promotion_buyget_min_quantity_required: {
    type: 'invalid_data',
    message: 'buy_rules_min_quantity is a required field for Promotion type of buyget',
  },
  promotion_buyget_buy_rules_required: {
    type: 'invalid_data',
    message: 'buy_rules are required for Promotion type of buyget',
  },
  promotion_buyget_target_rules_required: {
    type: 'invalid_data',
    message: 'target_rules are required for Promotion type of buyget',
  },
  promotion_allocation_required: {
    type: 'invalid_data',
    message: "application_method.allocation should be either 'each' or 'across' when target_type is {target_type}",
  },
  promotion_max_quantity_not_allowed: {
    type: 'invalid_data',
    message: 'application_method.max_quantity is not allowed to be set for allocation (across)',
  },
  promotion_max_quantity_required: {
    type: 'invalid_data',
    message: 'application_method.max_quantity is required when application_method.allocation is each',
  },
  promotion_rule_not_found: { type: 'invalid_data', message: 'Promotion rule with id "{id}" not found' },
  // The rule editor's value picker asked for an attribute a rule of that kind cannot test.
  promotion_rule_attribute_invalid: {
    type: 'invalid_data',
    message: 'Invalid rule attribute - {attribute} (not one of the {rule_type} attributes)',
  },
  // A promotion's campaign_id naming no campaign: Medusa answers 400 with the not-found wording.
  campaign_reference_missing: { type: 'invalid_data', message: 'Campaign with id "{id}" not found' },
  campaign_not_found: { type: 'not_found', message: 'Campaign with id "{id}" not found' },
  campaign_dates_inverted: { type: 'invalid_data', message: 'Campaign ends_at must be after starts_at' },
  campaign_budget_currency_required: {
    type: 'invalid_data',
    message: 'Campaign Budget type is spend, currency_code is required',
  },
  campaign_usage_limit_fractional: {
    type: 'invalid_data',
    message: 'A usage budget counts orders: its limit must be a whole number',
  },
  // At completion, when the order would overspend a campaign's budget: found by the completion's own
  // check (it knows the {code}) or, when concurrent orders took the last of it, by the database's
  // constraint on the usage row (it does not). Medusa has no code for it (its promotion module's
  // computed action is `campaignBudgetExceeded`).
  promotion_budget_exhausted: {
    type: 'not_allowed',
    message: [
      'A promotion of this cart has used up its campaign budget: remove its code and complete the cart again',
      'The promotion code {code} has used up its campaign budget: remove it and complete the cart again',
    ],
  },
  // taxes: tax regions, tax rates, price preferences, tax providers
  tax_region_not_found: { type: 'not_found', message: 'TaxRegion with id "{id}" not found' },
  tax_rate_not_found: { type: 'not_found', message: 'TaxRate with id "{id}" not found' },
  tax_region_reference_missing: { type: 'invalid_data', message: 'Tax region with id {id} was not found' },
  tax_region_province_outside_parent: {
    type: 'invalid_data',
    message: 'A province tax region must be in the country of its parent',
  },
  tax_region_parent_missing: { type: 'invalid_data', message: 'No parent region found for country: {country}' },
  price_preference_not_found: { type: 'not_found', message: 'PricePreference with id: {id} was not found' },
  // A plugin's tax provider that is not running, fails, times out or answers nonsense: never a 0 tax.
  tax_provider_unavailable: {
    type: 'service_unavailable',
    message: 'Taxes cannot be calculated right now (tax provider {id} {why}); try again shortly',
  },
  // The provider is asked outside the cart's transaction, which checks the cart still asks the same.
  tax_provider_cart_changing: {
    type: 'service_unavailable',
    message: 'The cart changed each of the {tries} times its tax provider was asked; try again shortly',
  },
  // price lists
  price_list_not_found: { type: 'not_found', message: 'Price list with id: {id} was not found' },
  price_list_dates_inverted: { type: 'invalid_data', message: 'Price list ends_at must be after starts_at' },
  price_list_price_range_inverted: {
    type: 'invalid_data',
    message: 'A price’s max_quantity must be at least its min_quantity',
  },
  price_list_variants_missing: { type: 'invalid_data', message: 'No price set exist for variants: {ids}' },
  price_list_prices_not_found: {
    type: 'not_found',
    message: 'Prices with id: {ids} were not found in the price list',
  },
  price_list_product_ids_required: {
    type: 'invalid_data',
    message: 'No product ids passed to remove from price list',
  },
  // customer groups
  customer_group_not_found: { type: 'not_found', message: 'Customer group with id: {id} was not found' },
  customer_groups_not_found: { type: 'not_found', message: 'Customer group with id: {ids} was not found' },
  customers_not_found: { type: 'not_found', message: 'Customer with id: {ids} was not found' },
  // fulfillment: shipping profiles, fulfilment sets, service zones, providers, shipping options
  shipping_profile_not_found: { type: 'not_found', message: 'Shipping profile with id: {id} was not found' },
  shipping_profile_in_use: {
    type: 'not_allowed',
    message: 'Shipping profile {id} is used by {what}: move them to another profile first',
  },
  shipping_profile_default: { type: 'not_allowed', message: 'The default shipping profile cannot be deleted' },
  fulfillment_location_not_found: { type: 'not_found', message: 'Stock location with id: {id} was not found' },
  fulfillment_set_not_found: { type: 'not_found', message: 'Fulfillment set with id: {id} was not found' },
  service_zone_not_found: { type: 'not_found', message: 'Service zone with id: {id} was not found' },
  geo_zone_not_in_zone: { type: 'invalid_data', message: 'Geo zone with id: {id} is not in service zone {zone}' },
  fulfillment_provider_not_found: { type: 'not_found', message: 'Fulfillment provider with id: {id} was not found' },
  fulfillment_provider_failed: { type: 'bad_gateway', message: 'Fulfillment provider {id} failed: {detail}' },
  fulfillment_provider_cannot_calculate: {
    type: 'invalid_data',
    message: 'Fulfillment provider {id} cannot calculate prices: give the option flat prices',
  },
  shipping_option_reference_missing: { type: 'invalid_data', message: '{what} with id: {id} was not found' },
  shipping_option_prices_required: {
    type: 'invalid_data',
    message: "A flat shipping option needs prices (or the spec's region_id and amount)",
  },
  shipping_option_no_price: {
    type: 'invalid_data',
    message: 'Shipping option {id} has no price for this cart (currency {currency})',
  },
  shipping_option_not_calculated: {
    type: 'invalid_data',
    message: 'Shipping option {id} is not priced by its provider (price_type flat): read its amount instead',
  },
  shipping_option_rule_not_found: {
    type: 'invalid_data',
    message: 'Shipping option rule with id: {id} is not a rule of shipping option {option}',
  },
  shipping_option_type_not_found: { type: 'not_found', message: 'Shipping option type with id: {id} was not found' },
  shipping_option_type_in_use: {
    type: 'not_allowed',
    message: 'Shipping option type {id} is used by {count} shipping option(s): give them another type first',
  },
  fulfillment_provider_not_at_location: {
    type: 'invalid_data',
    message: 'Fulfillment provider {id} does not ship from stock location {location}: link it to the location first',
  },
  shipping_profiles_unserved: {
    type: 'invalid_data',
    message: 'The cart needs a shipping method for each shipping profile of its items; missing: {profiles}',
  },
  // stock-locations: locations, their addresses and channel links
  stock_location_not_found: { type: 'not_found', message: 'Stock location with id: {id} was not found' },
  stock_location_address_not_found: {
    type: 'invalid_data',
    message: 'Stock location address with id: {id} was not found',
  },
  stock_location_has_reservations: {
    type: 'not_allowed',
    message: 'Stock location {id} has reserved stock; release or fulfil its reservations first',
  },
  stock_location_channels_missing: { type: 'invalid_data', message: 'Sales channels with IDs {ids} do not exist' },
  // inventory: items, levels, variant links, reservations, an order's stock
  inventory_item_not_found: { type: 'not_found', message: 'Inventory item with id: {id} was not found' },
  inventory_item_sku_taken: { type: 'invalid_data', message: 'Inventory item with sku: {sku} already exists' },
  inventory_item_has_reservations: {
    type: 'not_allowed',
    message: 'Inventory item {id} has reserved stock; release or fulfil its reservations first',
  },
  inventory_items_missing: { type: 'not_found', message: 'Inventory items {ids} do not exist' },
  inventory_level_not_found: { type: 'not_found', message: 'Item {item} is not stocked at location {location}' },
  inventory_level_location_repeated: { type: 'invalid_data', message: 'A location may have only one level per item' },
  inventory_level_locations_missing: { type: 'invalid_data', message: 'Stock locations with IDs {ids} do not exist' },
  inventory_level_exists: {
    type: 'invalid_data',
    message: 'Inventory level for item {item} and location {locations} already exists',
  },
  inventory_level_below_reserved: {
    type: 'not_allowed',
    message: 'Stocked quantity {stocked} is below the {reserved} reserved at location {location}',
  },
  inventory_level_reserved: {
    type: 'not_allowed',
    message: 'Cannot remove the level at {location}: {reserved} reserved',
  },
  inventory_level_stocked: {
    type: 'not_allowed',
    message: 'Cannot remove the level at {location}: {stocked} in stock (send force to remove it anyway)',
  },
  inventory_levels_missing: { type: 'not_found', message: 'Inventory levels {ids} do not exist' },
  variant_links_variants_missing: {
    type: 'not_found',
    message: 'Variants {ids} do not exist in product {product}',
  },
  variant_item_link_not_found: {
    type: 'not_found',
    message: 'Variant {variant} does not sell inventory item {item}',
  },
  variant_item_link_exists: { type: 'invalid_data', message: 'Variant {variant} already sells inventory item {item}' },
  reservation_not_found: { type: 'not_found', message: 'Reservation item with id: {id} was not found' },
  // A fulfilment from a location that keeps no level of the item (400, as the order desk's other refusals).
  fulfillment_location_not_stocked: {
    type: 'invalid_data',
    message: 'Item {item} is not stocked at location {location}',
  },
  // team: users, roles, invites
  user_not_found: { type: 'not_found', message: 'User with id: {id} was not found' },
  last_owner: {
    type: 'not_allowed',
    message: 'The shop must keep at least one owner: make another user owner first',
  },
  owner_change_refused: { type: 'forbidden', message: 'Only an owner may change or remove an owner' },
  role_not_found: { type: 'not_found', message: 'Role with id: {id} was not found' },
  role_unknown: { type: 'invalid_data', message: 'Role {role} does not exist' },
  role_beyond_actor: {
    type: 'forbidden',
    message: 'You cannot assign the role {role}: it holds {permissions} which your role lacks',
  },
  permission_malformed: {
    type: 'invalid_data',
    message: 'Permission {permission} is not of the form <resource>:<action> (either may be *)',
  },
  permission_unknown: {
    type: 'invalid_data',
    message: 'Permission {permission} matches no permission any route declares',
  },
  role_built_in_unchangeable: { type: 'not_allowed', message: 'The built-in role {id} cannot be changed' },
  role_built_in_undeletable: { type: 'not_allowed', message: 'The built-in role {id} cannot be deleted' },
  role_in_use: {
    type: 'conflict',
    message: 'Role {id} is held by {users} user(s) and {invites} open invite(s); reassign them first',
  },
  // Medusa's RBAC contract (/admin/rbac) over our roles: a policy is a permission routes declare.
  permission_beyond_actor: {
    type: 'forbidden',
    message: 'You cannot grant {permissions}, which your role lacks',
  },
  reset_beyond_actor: {
    type: 'forbidden',
    message: 'You cannot reset the password of {id}: their role holds {permissions} which yours lacks',
  },
  policy_not_found: { type: 'not_found', message: 'Policy with id: {id} was not found' },
  policy_declared_by_routes: {
    type: 'not_allowed',
    message: 'Policies are the permissions routes declare: they cannot be made, changed or deleted here',
  },
  rbac_field_unsupported: { type: 'invalid_data', message: '{field} is not supported: {reason}' },
  user_roles_single: {
    type: 'invalid_data',
    message: 'A user holds exactly one role: give one role, which replaces the current one',
  },
  user_role_required: {
    type: 'not_allowed',
    message: 'User {id} would hold no role: give them another role instead, which replaces {role}',
  },
  invite_not_found: { type: 'not_found', message: 'Invite with id: {id} was not found' },
  invite_invalid: { type: 'unauthorized', message: 'Invalid or expired invite' },
  invite_already_accepted: { type: 'not_allowed', message: 'Invite {id} was already accepted' },
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
  upload_type_invalid: { type: 'invalid_data', message: 'Invalid file type "{type}"' },
  // jobs: background imports and exports
  job_not_found: { type: 'not_found', message: 'Job with id: {id} was not found' },
  job_file_not_found: { type: 'not_found', message: 'Job {id} has no {kind} file' },
  job_not_cancelable: {
    type: 'not_allowed',
    message: 'Job {id} is {status}; only a job that has not ended can be canceled',
  },
  import_file_required: { type: 'invalid_data', message: 'No file was uploaded for importing' },
  import_unreadable: { type: 'invalid_data', message: 'The file is not a readable CSV: {detail}' },
  import_no_rows: { type: 'invalid_data', message: 'The file has a header but no rows to import' },
  import_not_found: { type: 'not_found', message: 'Product import with transaction id: {id} was not found' },
  import_not_awaiting: {
    type: 'not_allowed',
    message: 'Product import {id} is {status}; only an import awaiting confirmation can be confirmed',
  },
  import_upload_not_found: {
    type: 'not_found',
    message: 'No uploaded file {id} awaits an import (upload the CSV with POST /admin/uploads first)',
  },
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
  // marketplace: billing, subscriptions, the sales ledger and vendor payouts
  marketplace_billing_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'billing' must be one of one_time, monthly, yearly",
  },
  marketplace_vendor_only: {
    type: 'invalid_data',
    message: 'These routes answer for a vendor token; the operator uses {instead}',
  },
  marketplace_payout_account_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'payout_account' must be a Stripe connected account id (acct_…)",
  },
  marketplace_subscription_not_found: { type: 'not_found', message: 'Subscription with id: {id} was not found' },
  marketplace_license_without_subscription: {
    type: 'not_found',
    message: 'No subscription of {marketplace_id} matches this license key and instance',
  },
  marketplace_subscription_ended: { type: 'not_allowed', message: 'Subscription {id} has already ended' },
  marketplace_plugin_not_licensed: {
    type: 'not_found',
    message: 'Plugin with id: {id} is not a licensed marketplace plugin of this shop',
  },
  marketplace_sale_not_found: { type: 'not_found', message: 'Sale with id: {id} was not found' },
  marketplace_sale_not_refundable: { type: 'not_allowed', message: 'Sale {id} is a refund; refund the sale itself' },
  marketplace_sale_refunded: { type: 'conflict', message: 'Sale {id} has already been refunded' },
  marketplace_money_needs_stripe: {
    type: 'not_allowed',
    message: 'Refunds and payouts move money through Stripe: set STRIPE_SECRET_KEY on this marketplace',
  },
  marketplace_provider_failed: {
    type: 'bad_gateway',
    message: 'The payment provider could not {action}; try again later',
  },
  // marketplace: the catalog, publishing and review, the feed and updates, uploads
  marketplace_price_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'price_eur' must be a non-negative amount in euros with at most two decimals",
  },
  marketplace_price_too_high: {
    type: 'invalid_data',
    message: "Invalid request: Field 'price_eur' must be at most {max}",
  },
  marketplace_changelog_url_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'changelog_url' must be an absolute http(s) URL",
  },
  marketplace_description_too_long: {
    type: 'invalid_data',
    message: "Invalid request: Field 'description' must be at most {max} characters",
  },
  marketplace_rollout_percent_invalid: {
    type: 'invalid_data',
    message: 'rollout_percent must be an integer from 0 to 100',
  },
  marketplace_rollout_change_missing: { type: 'invalid_data', message: 'Give rollout_percent, halted, or both' },
  // The package reader's refusal (manifest, paths, sizes), in its words.
  marketplace_package_invalid: { type: 'invalid_data', message: '{detail}' },
  marketplace_package_too_large: { type: 'invalid_data', message: 'Package is larger than {mib} MiB compressed' },
  marketplace_version_exists: { type: 'conflict', message: 'Version {version} of {marketplace_id} already exists{as}' },
  marketplace_type_change: {
    type: 'invalid_data',
    message: '{marketplace_id} is a {type}; a new version cannot change its type to {new_type}',
  },
  marketplace_item_not_found: { type: 'not_found', message: 'Marketplace item {marketplace_id} not found' },
  marketplace_item_id_not_found: { type: 'not_found', message: 'Marketplace item with id: {id} was not found' },
  marketplace_item_missing: { type: 'not_found', message: 'Item with id: {id} was not found' },
  marketplace_version_not_found: { type: 'not_found', message: 'Version {version} of {marketplace_id} not found' },
  marketplace_version_id_not_found: { type: 'not_found', message: 'Version with id: {id} was not found' },
  marketplace_version_decided: {
    type: 'conflict',
    message: 'Version {version} of {marketplace_id} is already {status}',
  },
  // An operator's upload that failed an automatic check waits in review until approved knowingly.
  marketplace_review_override_required: {
    type: 'conflict',
    message:
      'Version {version} of {marketplace_id} failed its automatic checks ({failed}): approve it with override: true and a reason to list it anyway',
  },
  marketplace_updates_versions_invalid: {
    type: 'invalid_data',
    message: "Invalid request (query): Field 'versions' must be a JSON object of marketplace_id to version",
  },
  marketplace_updates_too_many: {
    type: 'invalid_data',
    message: "Invalid request (query): Field 'versions' may name at most {max} items",
  },
  marketplace_updates_version_invalid: {
    type: 'invalid_data',
    message: "Invalid request (query): version of {id} in 'versions' must be dotted numeric, got {got}",
  },
  marketplace_upload_one_file: {
    type: 'invalid_data',
    message: "Invalid request: upload exactly one file, in the field 'file'",
  },
  marketplace_upload_too_many_fields: {
    type: 'invalid_data',
    message: 'Invalid request: too many form fields (allowed: file, {allowed})',
  },
  marketplace_upload_unreadable: { type: 'invalid_data', message: 'Invalid multipart upload: {detail}' },
  marketplace_upload_not_multipart: {
    type: 'invalid_data',
    message: "Invalid request: send multipart/form-data with the package in the field 'file'",
  },
  marketplace_upload_wrong_file_field: {
    type: 'invalid_data',
    message: "Invalid request: the package goes in the field 'file', not '{field}'",
  },
  marketplace_upload_unknown_field: {
    type: 'invalid_data',
    message: "Invalid request: Unrecognized fields: '{field}'",
  },
  marketplace_upload_file_required: {
    type: 'invalid_data',
    message: "Invalid request: Field 'file' is required (the .tgz package)",
  },
  // marketplace: the transparency log
  marketplace_log_tree_size_invalid: {
    type: 'invalid_data',
    message: 'The log has {current} entries; tree_size {size} does not exist yet',
  },
  marketplace_log_proof_query: { type: 'invalid_data', message: 'Give leaf_index, or marketplace_id and version' },
  marketplace_log_entry_not_found: { type: 'not_found', message: 'No such entry in the transparency log' },
  marketplace_log_entry_outside_tree: {
    type: 'invalid_data',
    message: 'Entry {leaf_index} is not in the tree of size {tree_size}',
  },
  marketplace_log_range_first: { type: 'invalid_data', message: 'first must not be above second' },
  marketplace_log_range_end: { type: 'invalid_data', message: 'end must not be below start' },
  // marketplace: checkout, downloads and licences
  marketplace_checkout_not_found: { type: 'not_found', message: 'Checkout session with id: {id} was not found' },
  marketplace_checkout_expired: { type: 'not_allowed', message: 'Checkout session {id} has expired' },
  marketplace_callback_url_invalid: {
    type: 'invalid_data',
    message: "Invalid request: Field 'callback_url' must be an http or https base URL without query or fragment",
  },
  marketplace_item_free: { type: 'invalid_data', message: '{marketplace_id} is free: download it without a checkout' },
  marketplace_stripe_not_configured: {
    type: 'not_found',
    message: 'Stripe payments are not configured on this marketplace',
  },
  marketplace_stripe_body_not_raw: { type: 'invalid_data', message: 'Expected the raw JSON body of a Stripe event' },
  marketplace_stripe_signature_invalid: {
    type: 'invalid_data',
    message: 'Stripe webhook signature could not be verified: {detail}',
  },
  marketplace_license_required: { type: 'forbidden', message: 'A valid license for this instance is required' },
  marketplace_download_link_invalid: { type: 'forbidden', message: 'Download link is invalid' },
  marketplace_download_link_expired: {
    type: 'forbidden',
    message: 'Download link has expired; request a new one from the download endpoint',
  },
  marketplace_license_not_found: { type: 'not_found', message: 'License with id: {id} was not found' },
  marketplace_license_revoked: { type: 'not_allowed', message: 'License {id} is revoked and cannot be renewed' },
  // marketplace: vendors, revocations, ratings
  marketplace_namespace_not_owned: {
    type: 'forbidden',
    message: "@{namespace} is not one of this vendor's namespaces",
  },
  marketplace_namespace_invalid: {
    type: 'invalid_data',
    message: 'Namespace "{input}" must be @ and a lower-case slug (@acme, @acme-labs)',
  },
  marketplace_namespace_taken: { type: 'conflict', message: 'Namespace @{namespace} is taken' },
  marketplace_namespace_taken_meanwhile: {
    type: 'conflict',
    message: 'Namespace @{namespace} was taken meanwhile; sign up with another',
  },
  marketplace_vendor_email_exists: { type: 'conflict', message: 'A vendor with email {email} exists' },
  marketplace_verification_link_invalid: {
    type: 'invalid_data',
    message: 'This verification link is unknown, used or expired',
  },
  marketplace_vendor_cannot_activate: { type: 'invalid_data', message: 'This vendor account cannot be activated' },
  marketplace_vendor_activate_by_email: {
    type: 'invalid_data',
    message: 'A vendor becomes active by verifying its email address',
  },
  marketplace_vendor_not_found: { type: 'not_found', message: 'Vendor with id: {id} was not found' },
  marketplace_vendor_token_not_found: { type: 'not_found', message: 'Live vendor token with id: {id} was not found' },
  marketplace_version_already_revoked: { type: 'conflict', message: 'Version {version} is already revoked' },
  marketplace_signing_key_not_found: {
    type: 'not_found',
    message: 'Signing key {key_id} was not found or is already revoked',
  },
  marketplace_review_not_installed: {
    type: 'forbidden',
    message: 'Only a shop that installed this item may review it',
  },
  marketplace_review_not_found: { type: 'not_found', message: 'Review with id: {id} was not found' },
  marketplace_review_answered: { type: 'conflict', message: 'This review already has the vendor’s answer' },
  // after the sale: order changes, exchanges, claims, the money they move
  order_change_not_active: { type: 'not_allowed', message: '{detail}' },
  order_change_invalid: { type: 'invalid_data', message: '{detail}' },
  order_change_not_found: { type: 'not_found', message: 'Order change with id: {id} was not found' },
  refund_exceeds_captured: {
    type: 'not_allowed',
    message: 'You are not allowed to refund more than the captured amount',
  },
  exchange_not_found: { type: 'not_found', message: 'Exchange with id: {id} was not found' },
  claim_not_found: { type: 'not_found', message: 'Claim with id: {id} was not found' },
  payment_collection_not_found: { type: 'not_found', message: 'Payment collection with id: {id} was not found' },
  payment_collection_not_payable: { type: 'not_allowed', message: '{detail}' },
  payment_session_not_found: { type: 'not_found', message: 'Payment session with id: {id} was not found' },
  payment_collection_too_large: { type: 'not_allowed', message: 'Amount cannot be greater than {amount}' },
  // orders: the desk, fulfilments, payments, the lifecycle
  order_not_found: { type: 'not_found', message: 'Order with id: {id} was not found' },
  order_canceled: { type: 'not_allowed', message: 'Order with id {id} has been canceled.' },
  order_archived: { type: 'not_allowed', message: 'Order with id {id} has been archived.' },
  order_sort_field_invalid: { type: 'invalid_data', message: 'Order field {field} is not valid' },
  order_customer_not_found: { type: 'not_found', message: 'Customer with id: {id} was not found' },
  order_item_not_found: { type: 'invalid_data', message: 'Item ID "{id}" not found.' },
  order_variant_unpriced: {
    type: 'invalid_data',
    message: 'Variant {id} has no price in {currency}: give a unit_price',
  },
  order_not_completable: { type: 'not_allowed', message: 'Order {id} is {status} and cannot be completed' },
  order_has_active_change: {
    type: 'not_allowed',
    message: 'Order {id} has an active order change: confirm or cancel it first',
  },
  order_items_not_fulfilled: { type: 'not_allowed', message: 'Order {id} has items that are not fulfilled' },
  order_difference_pending: {
    type: 'not_allowed',
    message: 'Order {id} has a pending difference: settle the payment first',
  },
  order_not_archivable: { type: 'not_allowed', message: 'Order {id} must be completed or canceled to be archived' },
  order_change_version_conflict: {
    type: 'conflict',
    message: 'Order change {id} was made for version {made}, the order is at {version}',
  },
  order_capture_waiting: {
    type: 'conflict',
    message: "A capture of {amount} is waiting for {provider}'s answer: repeat it to settle it, then cancel the order",
  },
  order_cancel_raced: {
    type: 'conflict',
    message: 'The order changed while it was being canceled: send the cancellation again',
  },
  order_fulfillments_not_canceled: {
    type: 'not_allowed',
    message: 'All fulfillments must be canceled before canceling an order',
  },
  order_nothing_to_capture: { type: 'not_allowed', message: 'Order {id} has no authorized amount left to capture' },
  order_nothing_to_refund: {
    type: 'not_allowed',
    message: 'Order {id} has no captured payment: capture it before refunding',
  },
  fulfillment_item_reference_invalid: {
    type: 'invalid_data',
    message: 'Each item must name its order line with exactly one of item_id and id',
  },
  fulfillment_not_found: { type: 'not_found', message: 'Fulfillment with id: {id} was not found' },
  fulfillment_canceled: { type: 'not_allowed', message: 'Fulfillment {id} has been canceled' },
  fulfillment_item_not_in_order: { type: 'invalid_data', message: 'Item with id: {id} is not a line of order {order}' },
  fulfillment_quantity_exceeded: {
    type: 'not_allowed',
    message: 'Cannot fulfill {quantity} of item {id}: only {left} of {total} left to fulfill',
  },
  shipment_items_incomplete: {
    type: 'invalid_data',
    message: 'A shipment ships all of fulfillment {id}: items must list each of its items with its full quantity',
  },
  fulfillment_already_shipped: { type: 'not_allowed', message: 'Fulfillment {id} has already been shipped' },
  fulfillment_already_delivered: { type: 'not_allowed', message: 'Fulfillment has already been marked delivered' },
  fulfillment_not_shipped: {
    type: 'not_allowed',
    message: 'Fulfillment {id} has not been shipped yet: create its shipment first',
  },
  fulfillment_shipped_not_cancelable: {
    type: 'not_allowed',
    message: 'Fulfillment {id} has been shipped and can no longer be canceled',
  },
  fulfillment_cancel_pending: {
    type: 'conflict',
    message: 'Fulfillment {id} is being canceled at its carrier; send this again once it answered',
  },
  fulfillment_units_pending: {
    type: 'conflict',
    message:
      'Item {id} has {pending} units in a fulfilment whose carrier is being asked now; send this again once it answered',
  },
  fulfillment_provider_timeout: {
    type: 'gateway_timeout',
    message:
      'Fulfillment provider {id} did not answer in time; send the same items again to ask it again (it will not make a second label)',
  },
  fulfillment_provider_mismatch: {
    type: 'invalid_data',
    message: 'Fulfillment provider {id} does not ship this order: its shipping option is fulfilled by {expected}',
  },
  order_address_country_changed: {
    type: 'invalid_data',
    message: 'Country code cannot be changed',
  },
  order_change_promotions_not_carried: {
    type: 'invalid_data',
    message: "Promotions are not carried over to an order change's new items here: send carry_over_promotions false",
  },
  // returns and return reasons
  return_not_found: { type: 'not_found', message: 'Return with id: {id} was not found' },
  return_reason_not_found: { type: 'not_found', message: 'Return reason with id: {id} was not found' },
  return_reason_own_parent: { type: 'invalid_data', message: 'A return reason cannot be its own parent' },
  return_reason_cycle: {
    type: 'invalid_data',
    message: 'A return reason cannot be nested under one of its own children',
  },
  return_quantity_exceeds_fulfilled: {
    type: 'invalid_data',
    message: 'Cannot request to return more items than what was fulfilled for item {id}.',
  },
  return_action_not_found: { type: 'not_found', message: 'Action with id: {id} was not found in return {return}' },
  return_has_no_items: {
    type: 'invalid_data',
    message: 'Return {id} has no items: add some with request-items first',
  },
  return_received_not_cancelable: {
    type: 'not_allowed',
    message: 'Return {id} has items received and cannot be canceled',
  },
  return_item_not_in_return: { type: 'invalid_data', message: 'Item ID "{id}" is not part of return {return}.' },
  return_receive_exceeds_requested: {
    type: 'invalid_data',
    message: 'Cannot receive more items than what was requested to be returned for item {id}.',
  },
  return_nothing_received: {
    type: 'invalid_data',
    message: 'Return {id} has no items received: add some with receive-items first',
  },
  return_shipping_quote_changing: {
    type: 'conflict',
    message: 'The return changed each of the {tries} times its carrier was asked for the shipping price; try again',
  },
  return_parcel_changing: {
    type: 'conflict',
    message: 'The return changed each of the {tries} times its carrier was asked for its parcel; try again',
  },
  return_label_pending: {
    type: 'conflict',
    message: 'A return label for order {order} is being asked of its carrier now; send this again once it answered',
  },
  // exchanges and claims
  swap_action_not_found: { type: 'not_found', message: 'Action with id: {id} was not found in {kind} {swap}' },
  // order edits
  order_item_below_fulfilled: {
    type: 'invalid_data',
    message: 'Item {id} has already been fulfilled and quantity cannot be lower than {fulfilled}.',
  },
  order_edit_action_not_found: { type: 'not_found', message: 'Action with id: {id} was not found in the order edit' },
  order_edit_action_not_item_add: { type: 'invalid_data', message: 'Action {id} does not add an item' },
  order_edit_empty: { type: 'invalid_data', message: 'The order edit has no changes to request' },
  // order import (the whole request is refused; `index` is the order's place in `orders`)
  order_import_external_id_repeated: {
    type: 'invalid_data',
    message: 'external_id {id} is given to more than one order of the request',
  },
  order_import_raced: {
    type: 'conflict',
    message: 'Another import of the same external_id finished first: send the request again to import the rest',
  },
  order_import_region_not_found: { type: 'invalid_data', message: 'orders[{index}]: region {id} was not found' },
  order_import_currency_not_region: {
    type: 'invalid_data',
    message: 'orders[{index}]: currency {currency} is not the currency of region {region}',
  },
  order_import_channel_not_found: {
    type: 'invalid_data',
    message: 'orders[{index}]: sales channel {id} was not found',
  },
  order_import_customer_not_found: { type: 'invalid_data', message: 'orders[{index}]: customer {id} was not found' },
  order_import_variant_not_found: { type: 'invalid_data', message: 'orders[{index}]: variant {id} was not found' },
  order_import_item_untitled: {
    type: 'invalid_data',
    message: 'orders[{index}]: an item without a variant_id needs a title',
  },
  order_import_canceled_fulfilled: {
    type: 'invalid_data',
    message: 'orders[{index}]: a canceled order cannot have been fulfilled',
  },
  order_import_canceled_captured: {
    type: 'invalid_data',
    message:
      'orders[{index}]: a canceled order keeps no captured or authorized payment (refunded, canceled or not_paid)',
  },
  // draft orders
  draft_order_not_found: { type: 'not_found', message: 'Draft order with id: {id} was not found' },
  draft_region_not_found: { type: 'not_found', message: 'Region with id: {id} was not found' },
  draft_sales_channel_not_found: { type: 'not_found', message: 'Sales channel with id: {id} was not found' },
  draft_currency_not_region: {
    type: 'invalid_data',
    message: 'Currency {currency} is not the currency of region {region}',
  },
  draft_email_required: { type: 'invalid_data', message: 'Either email or customer_id must be provided' },
  draft_custom_item_incomplete: {
    type: 'invalid_data',
    message: 'A custom item (no variant_id) needs a title and a unit_price',
  },
  draft_shipping_option_outside_region: {
    type: 'invalid_data',
    message: "Shipping option {id} is not offered in the draft order's region",
  },
  draft_shipping_option_unpriced: {
    type: 'invalid_data',
    message: 'Shipping option {id} has no flat price in the region: give the method an amount',
  },
  draft_variants_unavailable: {
    type: 'invalid_data',
    message: 'Variants {ids} are no longer for sale: edit the draft first',
  },
  draft_edit_active: {
    type: 'not_allowed',
    message: 'Draft order {id} has an active edit ({change}): confirm or cancel it before converting',
  },
  draft_has_no_items: { type: 'invalid_data', message: 'Draft order {id} has no items to order' },
  draft_action_not_found: {
    type: 'not_found',
    message: 'Action with id: {id} was not found in the draft order edit',
  },
  draft_shipping_method_not_found: {
    type: 'not_found',
    message: 'Shipping method with id: {id} was not found in the draft order',
  },
  draft_promotion_rules_unmet: {
    type: 'invalid_data',
    message: 'The promotion code {code} cannot be applied to this draft order: its rules do not match it',
  },
  // order credit lines
  order_credit_line_no_difference: {
    type: 'invalid_data',
    message: 'Can only create credit lines if the order {id} has a positive or negative pending difference',
  },
  order_credit_line_amount: {
    type: 'invalid_data',
    message:
      'A credit line of {amount} cannot settle a pending difference of {pending}: it must be non-zero, of the same sign and at most as large',
  },
  // order transfers
  order_transfer_not_requested: { type: 'not_allowed', message: 'Order {id} has no requested transfer' },
  order_transfer_token_invalid: { type: 'invalid_data', message: 'The transfer token is not valid for this order' },
  order_transfer_to_guest: {
    type: 'invalid_data',
    message: 'Cannot transfer order: {id} to a guest customer account: {email}',
  },
  order_transfer_same_customer: {
    type: 'invalid_data',
    message: [
      'Order: {id} already belongs to customer: {customer}',
      'Order: {id} already belongs to the guest with the email: {email}',
    ],
  },
} as const satisfies Record<string, { type: ErrorType; message: string | readonly string[] }>;

export type ErrorCode = keyof typeof ERROR_CODES;
