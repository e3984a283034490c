import { z } from 'zod';

/** Form fields of POST {auth_url}/oauth2/token. */
export const TokenRequest = z.object({
  grant_type: z.literal('client_credentials'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.int().positive(),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'token_type Bearer'),
});
export type TokenResponse = z.infer<typeof TokenResponse>;
