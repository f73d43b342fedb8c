import { forwardRef, useId, useRef, useState } from "react";

const Field = forwardRef<HTMLInputElement, { label: string; value: string; onChange: (v: string) => void }>(
  function Field({ label, value, onChange }, ref) {
    const id = useId();
    return (
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <input id={id} ref={ref} value={value} onChange={(e) => onChange(e.target.value)} className="border rounded px-2 py-1" />
      </div>
    );
  },
);

export default function App() {
  const [city, setCity] = useState("");
  const [zip, setZip] = useState("");
  const cityRef = useRef<HTMLInputElement>(null);
  return (
    <div className="max-w-sm mx-auto mt-12 space-y-4">
      <Field ref={cityRef} label="City" value={city} onChange={setCity} />
      <Field label="Postcode" value={zip} onChange={setZip} />
      <button className="text-blue-600 underline" onClick={() => cityRef.current?.focus()}>
        Edit city
      </button>
      <p className="text-gray-700">
        Shipping to: {city || "?"} {zip}
      </p>
    </div>
  );
}
