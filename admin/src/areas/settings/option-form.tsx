import { useState } from 'react';
import { Field } from '../../components/ui.tsx';
import { namedChoices, SelectField } from '../../components/form-pieces.tsx';
import { NameField, PriceRowsFieldset, SubForm } from './shipping-form-parts.tsx';
import { codeOf, pricesFrom, priceRows, type PriceRow } from './shipping-forms.ts';
import { useShippingWrite, type ShippingOption, type ShippingRefs } from './shipping-write.ts';

const ruleIs = (o: ShippingOption | undefined, attribute: string, value: string) =>
  !!o?.rules.some((r) => r.attribute === attribute && String(r.value) === value);

/**
 * A shipping option of a zone, new or changed: profile, provider, flat or calculated, and its
 * prices: each in a currency or for a region, each maybe only when the cart's item total meets a
 * condition (free shipping over €50 is a second price of 0 when the item total is ≥ 50).
 */
export function OptionForm({
  zoneId,
  option,
  refs,
  onDone,
}: {
  zoneId: string;
  option?: ShippingOption;
  refs: ShippingRefs;
  onDone?: () => void;
}) {
  const firstCurrency = refs.currencies[0] ?? 'eur';
  const blankRow = (): PriceRow => ({ where: `cur:${firstCurrency}`, amount: '', operator: '', threshold: '' });
  const [name, setName] = useState(option?.name ?? '');
  const [profile, setProfile] = useState(option?.shipping_profile_id ?? 'sp_default');
  const [provider, setProvider] = useState(option?.provider_id ?? 'manual_manual');
  const [priceType, setPriceType] = useState(option?.price_type ?? 'flat');
  // A shared type (Settings' option types) by id, or '' for a type of the option's own name.
  const sharedType = (id: string | undefined) => (id && refs.types.some((t) => t.id === id) ? id : '');
  const [typeId, setTypeId] = useState(sharedType(option?.type?.id));
  const [inStore, setInStore] = useState(!ruleIs(option, 'enabled_in_store', 'false'));
  const [isReturn, setIsReturn] = useState(ruleIs(option, 'is_return', 'true'));
  const [rows, setRows] = useState<PriceRow[]>(() => (option?.prices.length ? priceRows(option.prices) : [blankRow()]));
  const write = useShippingWrite(() => {
    if (!option) {
      setName('');
      setProfile('sp_default');
      setProvider('manual_manual');
      setPriceType('flat');
      setTypeId('');
      setRows([blankRow()]);
    }
    onDone?.();
  });
  const currencyOf = (regionId: string) => refs.regions.find((r) => r.id === regionId)?.currency_code;

  const submit = () =>
    write.mutate({
      path: option ? `/admin/shipping-options/${option.id}` : '/admin/shipping-options',
      done: option ? 'Shipping option saved' : 'Shipping option created',
      body: () => ({
        name: name.trim(),
        ...(option ? {} : { service_zone_id: zoneId }),
        ...(typeId
          ? { type_id: typeId }
          : option && !sharedType(option.type?.id)
            ? {}
            : { type: { label: name.trim(), code: codeOf(name) } }),
        shipping_profile_id: profile,
        provider_id: provider,
        price_type: priceType,
        ...(priceType === 'flat' ? { prices: pricesFrom(rows, currencyOf) } : {}),
        rules: [
          { attribute: 'enabled_in_store', operator: 'eq', value: inStore ? 'true' : 'false' },
          { attribute: 'is_return', operator: 'eq', value: isReturn ? 'true' : 'false' },
        ],
      }),
    });

  return (
    <SubForm
      label={option ? `Edit ${option.name}` : 'New shipping option'}
      write={write}
      onSubmit={submit}
      submit={option ? 'Save option' : 'Create option'}
      onCancel={option ? onDone : undefined}
    >
      <div className="row">
        <NameField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={write.error} />
        <SelectField
          label="Shipping profile"
          name="shipping_profile_id"
          choices={namedChoices(refs.profiles)}
          value={profile}
          onChange={setProfile}
          error={write.error}
        />
        <SelectField
          label="Provider"
          name="provider_id"
          choices={namedChoices(refs.providers)}
          value={provider}
          onChange={setProvider}
          error={write.error}
        />
        <SelectField
          label="Type"
          name="type_id"
          choices={refs.types.map((t) => ({ value: t.id, label: t.label }))}
          none={option && !sharedType(option.type?.id) ? 'Its own' : 'New, from the name'}
          value={typeId}
          onChange={setTypeId}
          error={write.error}
        />
        <Field
          as="select"
          label="Price"
          name="price_type"
          value={priceType}
          onChange={(e) => setPriceType(e.target.value as 'flat' | 'calculated')}
          error={write.error}
        >
          <option value="flat">Flat prices</option>
          <option value="calculated">Calculated by the provider</option>
        </Field>
      </div>
      {priceType === 'flat' && (
        <PriceRowsFieldset rows={rows} setRows={setRows} blankRow={blankRow} refs={refs} error={write.error} />
      )}
      <div className="row">
        <Field
          label="Shown in the store"
          name="enabled_in_store"
          type="checkbox"
          checked={inStore}
          onChange={(e) => setInStore(e.target.checked)}
        />
        <Field
          label="Return option"
          name="is_return"
          type="checkbox"
          checked={isReturn}
          onChange={(e) => setIsReturn(e.target.checked)}
        />
      </div>
    </SubForm>
  );
}
