import { describe, expect, it } from 'vitest';
import { isRelativeUrl, readCookie, xsrfHeaders } from './xsrf';

describe('readCookie', () => {
  it('finds one cookie among several and decodes it', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=abc%2Fdef; b=2')).toBe('abc/def');
    expect(readCookie('XSRF-TOKEN', 'X-XSRF-TOKEN=nope; a=1')).toBeNull();
    expect(readCookie('XSRF-TOKEN', '')).toBeNull();
  });
});

describe('isRelativeUrl', () => {
  it.each([
    ['/api/v1/files', true],
    ['files', true],
    ['./files?x=1', true],
    ['?page=2', true],
    ['http://example.org/api', false],
    ['HTTPS://example.org/api', false],
    ['//evil.example/api', false],
    ['data:text/plain,hi', false],
  ])('%s → %s', (url, expected) => {
    expect(isRelativeUrl(url)).toBe(expected);
  });
});

describe('xsrfHeaders', () => {
  const cookies = 'XSRF-TOKEN=token-123';
  it.each([
    ['POST', '/api/v1/x', { 'X-XSRF-TOKEN': 'token-123' }],
    ['put', '/api/v1/x', { 'X-XSRF-TOKEN': 'token-123' }],
    ['PATCH', 'relative/path', { 'X-XSRF-TOKEN': 'token-123' }],
    ['DELETE', '/api/v1/x', { 'X-XSRF-TOKEN': 'token-123' }],
    ['GET', '/api/v1/x', {}],
    ['HEAD', '/api/v1/x', {}],
    ['POST', 'https://other.example/api', {}],
    ['POST', '//other.example/api', {}],
  ])('%s %s', (method, url, expected) => {
    expect(xsrfHeaders(method, url, cookies)).toEqual(expected);
  });

  it('sends nothing when the cookie is missing', () => {
    expect(xsrfHeaders('POST', '/api/v1/x', 'other=1')).toEqual({});
  });

  it('reads document.cookie by default', () => {
    document.cookie = 'XSRF-TOKEN=from-document; path=/';
    expect(xsrfHeaders('POST', '/api/v1/x')).toEqual({ 'X-XSRF-TOKEN': 'from-document' });
  });
});
