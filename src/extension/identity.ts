/**
 * Fixed extension identities for development and test builds, so that end-to-end tests and the
 * options a developer saved keep working across rebuilds. Store builds leave the Chrome key out.
 */
export const CHROME_MANIFEST_KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyOxWSa6jNf+8fY8zLHlYucDSLAgxStwKwUcxvZG5zVn2npnZEirD21BTQkid9e9FDo9WF3oE4yWLO7+kShJG6I7fI9gk5/Ds5i0atQAyZzXwZvZrOZZgn/xR1mg3dD7EEXPspW6yQ5f+44RkwPNaVEhC377AdVSOe5vhgRnBRgus/xH6zO4ardaMA9KpOtxoqx5HDVD6Se0C2GlrlI2i5c0olx0hY9T6sB3A8V8/eiO8RXT3nR4a5R/T7TXPqCnVge+aCsTrvoTCx7lodPXPuTuJvShSq7hTJ8zAjTWkfJNZC1fsnm6IiJGPsvSt0N2YXxhX4gxYJuQRRwZ+Ir1InwIDAQAB';

/** The Chrome extension id that {@link CHROME_MANIFEST_KEY} yields. */
export const CHROME_EXTENSION_ID = 'llfmejnalkkejcegbedeaelnmjpfeclp';

/** The Firefox add-on id (browser_specific_settings.gecko.id). */
export const GECKO_ID = 'retinue@retinue.dev';
