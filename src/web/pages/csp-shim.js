// Loaded first on every page, which runs under a Content-Security-Policy allowing scripts from
// this origin only and inline <style> elements only with the response's nonce (CONTRACT §18,
// src/web/security-headers.ts). The libraries the pages load (Scalar, GraphiQL) predate such a
// policy in three ways, each met here without loosening it:
// - they create <style> elements from script: each gets the nonce (only scripts the policy trusts
//   run, so the nonce reaches no one else);
// - they set style attributes with setAttribute('style', …): done through the CSSOM instead, which
//   CSP leaves to scripts (style attributes in markup stay blocked);
// - they probe whether eval works (`new Function('')`) and fall back when it does not: the probe
//   gets the EvalError the policy would raise, without a violation being reported.
(() => {
  const nonce = document.currentScript && document.currentScript.nonce;
  const createElement = Document.prototype.createElement;
  Document.prototype.createElement = function (tagName, options) {
    const element = createElement.call(this, tagName, options);
    if (nonce && String(tagName).toLowerCase() === 'style') element.nonce = nonce;
    return element;
  };

  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (String(name).toLowerCase() === 'style' && this.style) this.style.cssText = String(value);
    else setAttribute.call(this, name, value);
  };

  const NativeFunction = Function;
  const refused = function Function() {
    throw new EvalError("Refused to evaluate a string as JavaScript: 'unsafe-eval' is not allowed by this page's Content Security Policy");
  };
  refused.prototype = NativeFunction.prototype;
  globalThis.Function = refused;
})();
