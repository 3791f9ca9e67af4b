import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useToast } from '../components/toasts.tsx';

/**
 * A write told in toasts (a row's delete, a status picked in a table): once it succeeds, the
 * queries under `refresh` are read again, then `done` says what happened; a failure shows its
 * message.
 */
export function useToastWrite<V = void>(
  write: (vars: V) => Promise<unknown>,
  refresh: QueryKey,
  done: (vars: V) => string,
) {
  const client = useQueryClient();
  const notify = useToast();
  return useMutation({
    mutationFn: write,
    onSuccess: async (_data, vars) => {
      await client.invalidateQueries({ queryKey: refresh });
      notify(done(vars), 'success');
    },
    onError: (e) => notify((e as Error).message, 'error'),
  });
}
