/*
 * Test support for SMART on FHIR: the real standalone launch by HTTP inject (registration,
 * authorize with PKCE, consent, code, token), for this module's tests, the FHIR module's and the
 * audit walk. It lives in apps/server/src/test/ so lower modules' tests may use it too.
 */
export * from '../../test/smart-launch.js';
