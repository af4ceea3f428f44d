import { expect, test } from 'vitest';
import { connectionCallsAtOnce, CONNECTIONS_PER_HOST } from '../../../src/model/connections-per-host';

test("a plain http address takes at most a browser's connections to one host; https keeps its setting; a lower setting stands", () => {
  expect(CONNECTIONS_PER_HOST).toBe(6);
  expect(connectionCallsAtOnce({ baseURL: 'http://127.0.0.1:5001/v1', maxConcurrency: 16 })).toBe(6);
  expect(connectionCallsAtOnce({ baseURL: 'HTTP://localhost:11434/v1', maxConcurrency: 8 })).toBe(6);
  expect(connectionCallsAtOnce({ baseURL: 'http://localhost:8080/v1', maxConcurrency: 2 })).toBe(2);
  expect(connectionCallsAtOnce({ baseURL: 'https://api.example.com/v1', maxConcurrency: 16 })).toBe(16);
});
