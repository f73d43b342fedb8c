import { useEffect, useState } from "react";

const SLIDES = [
  { color: "bg-rose-400", caption: "Sunrise over the bay" },
  { color: "bg-amber-400", caption: "Market morning" },
  { color: "bg-sky-400", caption: "Harbour at noon" },
  { color: "bg-violet-400", caption: "Evening lights" },
];

export default function App() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setIndex((i) => (i + 1) % SLIDES.length), 4000);
    return () => clearInterval(id);
  }, []);
  const slide = SLIDES[index];
  return (
    <div className="max-w-3xl mx-auto mt-10">
      <div className={`h-80 rounded-xl flex items-end p-6 ${slide.color}`}>
        <p className="text-white text-2xl font-semibold drop-shadow">{slide.caption}</p>
      </div>
      <div className="flex justify-center gap-2 mt-4">
        {SLIDES.map((s, i) => (
          <button
            key={s.caption}
            aria-label={`Show slide ${i + 1}`}
            className={`w-3 h-3 rounded-full ${i === index ? "bg-gray-800" : "bg-gray-300"}`}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </div>
  );
}
