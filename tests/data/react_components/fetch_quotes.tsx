import { useEffect, useState } from "react";

type Quote = { text: string; author: string };

const FALLBACK: Quote = { text: "Well begun is half done.", author: "Aristotle" };

export default function App() {
  const [quote, setQuote] = useState<Quote | null>(null);
  const [status, setStatus] = useState("loading");
  useEffect(() => {
    fetch("https://quotes.example.com/api/random")
      .then((r) => r.json() as Promise<Quote>)
      .then((q) => {
        setQuote(q);
        setStatus("online");
      })
      .catch(() => {
        setQuote(FALLBACK);
        setStatus("offline");
      });
  }, []);
  return (
    <figure className="max-w-xl mx-auto mt-24 p-8 border-l-4 border-sky-500 bg-sky-50">
      <blockquote className="text-2xl italic">{quote ? quote.text : "…"}</blockquote>
      <figcaption className="mt-4 text-gray-600">
        {quote ? quote.author : ""} <span className="text-xs uppercase">({status})</span>
      </figcaption>
    </figure>
  );
}
