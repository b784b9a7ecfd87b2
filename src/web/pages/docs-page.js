// The REST reference on /docs: Scalar, served by the service, reading /openapi.json. Scalar loads
// its fonts from its CDN and its agent searches a registry through its proxy unless told not to:
// this page makes no request to another origin (CONTRACT §17).
Scalar.createApiReference('#reference', {
  url: '/openapi.json',
  withDefaultFonts: false,
  hideClientButton: true,
  agent: { disabled: true },
});
