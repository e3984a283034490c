import type {
  IpcArgs,
  IpcChannel,
  IpcError,
  IpcEventName,
  IpcEventPayload,
  IpcResult,
  IpcValue,
} from '@shared/ipc';

/** The only way the renderer reaches main: window.orderDesk. It never throws. */
export function call<C extends IpcChannel>(
  channel: C,
  args: IpcArgs<C>,
): Promise<IpcResult<IpcValue<C>>> {
  return window.orderDesk.call(channel, args);
}

export function on<E extends IpcEventName>(
  event: E,
  listener: (payload: IpcEventPayload<E>) => void,
): () => void {
  return window.orderDesk.on(event, listener);
}

export interface ErrorText {
  title: string;
  detail: string | null;
}

const TITLES: Partial<Record<IpcError['kind'], string>> = {
  unauthorized: 'The server refused the client ID or client secret.',
  network: 'The server could not be reached. Check the address and your network connection.',
  timeout: 'The server did not answer in time. Try again in a moment.',
  unavailable: 'The server is unavailable right now. Try again in a moment.',
  'rate-limited': 'Too many requests: the server asked to slow down. Try again in a moment.',
  'not-connected': 'Not connected to a server. Choose a connection first.',
  validation: 'Some fields need attention.',
  'invalid-arguments': 'Some fields need attention.',
  keychain: 'The client secret is not available from the keychain.',
  server: 'The server reported an error.',
  'invalid-response': 'The server sent an answer Order Desk does not understand.',
};

/** A failure in words for people: a short title, and the detail main gave when it adds anything. */
export function describeError(error: IpcError): ErrorText {
  const title = TITLES[error.kind];
  if (!title) return { title: error.message, detail: null };
  return { title, detail: error.message && error.message !== title ? error.message : null };
}

export function errorMessage(error: IpcError): string {
  const { title, detail } = describeError(error);
  return detail ? `${title} ${detail}` : title;
}
