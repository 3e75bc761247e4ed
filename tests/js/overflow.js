// Text that overflows its box on the page as it is drawn now: an empty list when none.
// - each piece of text (a text node's line boxes, Range.getClientRects) must lie inside the box
//   it is laid out in (the nearest ancestor that is not inline: a label, a button, a cell, a
//   paragraph), a pixel to spare;
// - a box whose content is wider than it (scrollWidth > clientWidth) where it does not scroll or
//   clip (overflow visible), form fields aside (their value scrolls inside them);
// - nothing past the right edge of the page unless inside a box that scrolls or clips it.
// Not drawn (display none, closed details, zero size), visually hidden (.sr-only) and SVG
// content are skipped (the table picture is measured by picture_boxes.js).
() => {
  const out = [];
  const pageWidth = document.documentElement.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? `#${e.id}` : "")
    + (typeof e.className === "string" && e.className ? `.${e.className.trim().split(/\s+/).join(".")}` : "");
  const path = (e) => {
    const parts = [];
    for (let a = e; a && a !== document.body && parts.length < 4; a = a.parentElement) parts.unshift(name(a));
    return parts.join(" > ");
  };
  const hidden = (e) => e.closest("svg, .sr-only, script, style, select, option, textarea, [hidden]");
  const clippedAbove = (e) => {
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  const INLINE = new Set(["inline", "contents"]);
  const box = (e) => {
    let a = e;
    while (a.parentElement && INLINE.has(getComputedStyle(a).display)) a = a.parentElement;
    return a;
  };
  // text inside its box
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue.trim() || hidden(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const holder = box(node.parentElement);
    const b = holder.getBoundingClientRect();
    for (const r of rects) {
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        out.push(`"${node.nodeValue.trim().slice(0, 40)}" spills out of ${path(holder)}`
          + ` (text ${Math.round(r.left)}..${Math.round(r.right)} x ${Math.round(r.top)}..${Math.round(r.bottom)},`
          + ` box ${Math.round(b.left)}..${Math.round(b.right)} x ${Math.round(b.top)}..${Math.round(b.bottom)})`);
        break;
      }
    }
  }
  for (const e of document.body.querySelectorAll("*")) {
    if (hidden(e)) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const style = getComputedStyle(e);
    if (style.position === "fixed" && r.left < 0) continue;
    // content wider than its box, where the box neither scrolls nor clips
    if (!["INPUT", "TEXTAREA", "SELECT"].includes(e.tagName) && style.overflowX === "visible"
        && e.clientWidth && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${path(e)} holds ${e.scrollWidth}px in ${e.clientWidth}px`);
    }
    // past the page's right edge
    if (r.right > pageWidth + 1 && !clippedAbove(e)) out.push(`${path(e)} ends at ${Math.round(r.right)}px, past the page's ${pageWidth}px`);
  }
  return out;
}
