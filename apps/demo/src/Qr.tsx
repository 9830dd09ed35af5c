// A QR code drawn as SVG by React from the modules `qr` (Paul Miller's zero-dependency encoder,
// the author of the noble libraries this project signs with) computes: no image from elsewhere,
// no innerHTML, nothing the page's strict Content-Security-Policy would refuse.
import encodeQR from "qr";
import { useMemo } from "react";

/** Each dark module as one path segment, inside a quiet zone of four modules. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { path, size } = useMemo(() => {
    const modules = encodeQR(text, "raw", { ecc: "medium", border: 4 });
    let d = "";
    modules.forEach((row, y) => {
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      });
    });
    return { path: d, size: modules.length };
  }, [text]);
  return (
    <svg
      className="qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      data-testid="qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
