// Each text of the calculator's table picture outside the box it belongs in (SVG user units,
// half a unit to spare): an amount in its label, a badge's word in its badge, a seat's name and
// change in the seat's box, every box and the corner texts in the picture. An empty list: none.
() => {
  const svg = document.querySelector(".table-svg");
  const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  const out = [];
  const round = (r) => [r.x, r.y, r.width, r.height].map(Math.round);
  const inside = (a, b, what) => {
    const past = a.x < b.x - 0.5 || a.y < b.y - 0.5 || a.x + a.width > b.x + b.width + 0.5
      || a.y + a.height > b.y + b.height + 0.5;
    if (past) out.push(`${what}: ${JSON.stringify(round(a))} outside ${JSON.stringify(round(b))}`);
  };
  const whole = { x: 0, y: 0, width: w, height: h };
  for (const g of svg.querySelectorAll(".amount-label, .badge-box")) {
    const box = g.querySelector("rect").getBBox();
    inside(box, whole, `the box of ${g.textContent}`);
    for (const text of g.querySelectorAll("text")) inside(text.getBBox(), box, text.textContent);
  }
  for (const seat of svg.querySelectorAll(".seat")) {
    const box = seat.querySelector(":scope > rect").getBBox();
    inside(box, whole, `seat ${seat.dataset.seat}`);
    for (const text of seat.querySelectorAll(":scope > text")) inside(text.getBBox(), box, text.textContent);
  }
  for (const text of svg.querySelectorAll(".corner-text")) inside(text.getBBox(), whole, text.textContent);
  return out;
}
