import { useState } from "react";

type Faq = { q: string; a: string };

const FAQS: Faq[] = [
  { q: "How long does delivery take?", a: "Two to four working days inside the country." },
  { q: "Can I return an item?", a: "Yes, within thirty days, unused and in its box." },
  { q: "Do you ship abroad?", a: "We ship to most of Europe for a flat fee." },
];

function Item({ faq, open, onToggle }: { faq: Faq; open: boolean; onToggle: () => void }) {
  return (
    <div className="border rounded mb-2">
      <button className="w-full text-left px-4 py-3 font-medium flex justify-between" onClick={onToggle}>
        {faq.q}
        <span>{open ? "-" : "+"}</span>
      </button>
      {open && <p className="px-4 pb-3 text-gray-600">{faq.a}</p>}
    </div>
  );
}

export default function App() {
  const [openIndex, setOpenIndex] = useState<number | null>(0);
  return (
    <div className="max-w-xl mx-auto py-12">
      <h1 className="text-2xl font-bold mb-6">Questions</h1>
      {FAQS.map((faq, i) => (
        <Item key={faq.q} faq={faq} open={openIndex === i} onToggle={() => setOpenIndex(openIndex === i ? null : i)} />
      ))}
    </div>
  );
}
