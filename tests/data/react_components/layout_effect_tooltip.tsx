import { useLayoutEffect, useRef, useState } from "react";

function Tooltip({ text, children }: { text: string; children: React.ReactNode }) {
  const [show, setShow] = useState(false);
  const [width, setWidth] = useState(0);
  const tipRef = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (show && tipRef.current) setWidth(tipRef.current.getBoundingClientRect().width);
  }, [show]);
  return (
    <span className="relative inline-block" onMouseEnter={() => setShow(true)} onMouseLeave={() => setShow(false)}>
      {children}
      {show && (
        <span
          ref={tipRef}
          className="absolute bottom-full mb-1 bg-black text-white text-xs rounded px-2 py-1 whitespace-nowrap"
          style={{ left: `calc(50% - ${width / 2}px)` }}
        >
          {text}
        </span>
      )}
    </span>
  );
}

export default function App() {
  return (
    <div className="p-24 text-lg">
      Hover the <Tooltip text="A unit of distance">league</Tooltip> or the{" "}
      <Tooltip text="An old measure of length">fathom</Tooltip> to see a hint.
    </div>
  );
}
