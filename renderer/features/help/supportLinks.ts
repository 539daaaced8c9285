import { errorMessage } from '../../ui/forms.ts';

/** /help's views live in its query: the list (?pagina=), a new ticket (?nueva=1&ejecucion=) and one ticket (?consulta=). */
export const helpLinks = {
  list: (page = 1) => (page > 1 ? `/help?pagina=${page}` : '/help'),
  newTicket: '/help?nueva=1',
  ticket: (id: string) => `/help?consulta=${encodeURIComponent(id)}`,
};

/** A refused call as an Error carrying what the user reads: the server's Spanish reason, else ours. */
export function refusal(error: unknown, fallback: string): Error {
  return new Error(errorMessage(error, fallback));
}

