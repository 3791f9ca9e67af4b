import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../lib/api.ts';
import { ErrorNote, Field } from '../../components/ui.tsx';
import { SelectField, SubmitButton, SubmitForm } from '../../components/form-pieces.tsx';
import { useToast } from '../../components/toasts.tsx';
import { type InventoryItem, type Reservation, type StockLocation, locationName } from './types.ts';

/**
 * The locations a reservation can move to: those keeping its item, each with the units it could
 * hold (its available quantity, plus this reservation's own units where it already is). The API
 * has the last word: a location without the units free refuses (400 insufficient_inventory).
 */
export function moveChoices(r: Reservation, item: InventoryItem | undefined, locations: StockLocation[] | undefined) {
  const levels = item?.location_levels ?? [];
  if (levels.length === 0) return [{ value: r.location_id, label: locationName(locations, r.location_id) }];
  return levels.map((l) => ({
    value: l.location_id,
    label: `${locationName(locations, l.location_id)} (${l.available_quantity + (l.location_id === r.location_id ? r.quantity : 0)} free)`,
  }));
}

/**
 * Changes a reservation ahead of time (Medusa's `POST /admin/reservations/{id}`): moves it to
 * another location keeping the item (an order's units to the shop it will ship from), or changes
 * its quantity or description. The old hold is released and the new one taken in one write.
 */
export function ReservationForm({
  reservation: r,
  item,
  locations,
  onDone,
}: {
  reservation: Reservation;
  item: InventoryItem | undefined;
  locations: StockLocation[] | undefined;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const notify = useToast();
  const [location, setLocation] = useState(r.location_id);
  const [quantity, setQuantity] = useState(String(r.quantity));
  const [description, setDescription] = useState(r.description ?? '');
  const save = useMutation({
    mutationFn: () =>
      api(`/admin/reservations/${r.id}`, {
        method: 'POST',
        body: { location_id: location, quantity: Number(quantity), description: description.trim() || null },
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['reservations'] });
      await client.invalidateQueries({ queryKey: ['inventory-items'] });
      await client.invalidateQueries({ queryKey: ['inventory-item', r.inventory_item_id] });
      notify(
        location === r.location_id ? 'Reservation saved' : `Reservation moved to ${locationName(locations, location)}`,
        'success',
      );
      onDone();
    },
  });
  return (
    <SubmitForm label="Edit reservation" onSubmit={() => save.mutate()}>
      <div className="row">
        <SelectField
          label="Location"
          name="location_id"
          choices={moveChoices(r, item, locations)}
          value={location}
          onChange={setLocation}
          error={save.error}
        />
        <Field
          label="Quantity"
          name="quantity"
          type="number"
          min={1}
          step={1}
          required
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          error={save.error}
        />
        <Field
          label="Description"
          name="description"
          maxLength={2000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={save.error}
        />
        <div className="actions">
          <SubmitButton pending={save.isPending}>Save reservation</SubmitButton>
          <button type="button" className="btn" onClick={onDone}>
            Cancel
          </button>
        </div>
      </div>
      <ErrorNote error={save.error} skipField />
    </SubmitForm>
  );
}
