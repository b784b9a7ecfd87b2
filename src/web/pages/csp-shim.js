// Loaded first on every page, which runs under a Content-Security-Policy allowing scripts from
// this origin only and inline <style> elements only with the response's nonce (CONTRACT §18,
// src/web/security-headers.ts). The libraries the pages load (Scalar, GraphiQL) predate such a
// policy in three ways, each met here without loosening it:
// - they create <style> elements from script: each gets the nonce (only scripts the policy trusts
//   run, so the nonce reaches no one else);
// - they set style attributes with setAttribute('style', …), or write them in markup given to
//   innerHTML (Scalar's highlighted code examples): done through the CSSOM instead, which CSP
//   leaves to scripts (the markup is parsed in an inert template first; style attributes in the
//   served markup stay blocked);
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

  const innerHTML = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML');
  Object.defineProperty(Element.prototype, 'innerHTML', {
    ...innerHTML,
    set(html) {
      const text = String(html);
      if (!text.includes('style=') || this instanceof HTMLTemplateElement) return innerHTML.set.call(this, text);
      const template = createElement.call(document, 'template');
      innerHTML.set.call(template, text);
      const styled = [...template.content.querySelectorAll('[style]')].map((element) => [element, element.getAttribute('style')]);
      for (const [element] of styled) element.removeAttribute('style');
      this.replaceChildren(template.content);
      for (const [element, style] of styled) element.style.cssText = style;
    },
  });

  const NativeFunction = Function;
  const refused = function Function() {
    throw new EvalError("Refused to evaluate a string as JavaScript: 'unsafe-eval' is not allowed by this page's Content Security Policy");
  };
  refused.prototype = NativeFunction.prototype;
  globalThis.Function = refused;
})();
