import { Button, Group, Text } from '@mantine/core';
import SignaturePad from 'signature_pad';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Consents.module.css';

/**
 * The drawn signature: a canvas driven by `signature_pad` (pointer events: finger, pen or mouse),
 * sized to its box at the device's pixel ratio (at most 2, so the PNG stays small), with a clear
 * button. `onChange` gets the PNG as a data URL after each stroke, or null when cleared.
 */
export function SignaturePadField({ onChange }: { onChange: (png: string | null) => void }) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) {
      return;
    }
    const pad = new SignaturePad(canvas, { penColor: '#1a1a1a', minWidth: 0.8, maxWidth: 2.4 });
    padRef.current = pad;
    // Resizing a canvas wipes it: the strokes are drawn again on the resized one, so a signature
    // survives the page's layout changing under it (a scrollbar appearing, text loading above,
    // the phone turning). It once vanished that way while the patient was still signing.
    const resize = () => {
      const strokes = pad.toData();
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.clear();
      if (strokes.length > 0) {
        pad.fromData(strokes);
      }
      onChangeRef.current(pad.isEmpty() ? null : pad.toDataURL('image/png'));
    };
    resize();
    const observer = new ResizeObserver(() => {
      if (canvas.width !== Math.round(canvas.offsetWidth * Math.min(window.devicePixelRatio || 1, 2))) {
        resize();
      }
    });
    observer.observe(canvas);
    const handleEnd = () => onChangeRef.current(pad.isEmpty() ? null : pad.toDataURL('image/png'));
    pad.addEventListener('endStroke', handleEnd);
    return () => {
      observer.disconnect();
      pad.removeEventListener('endStroke', handleEnd);
      pad.off();
    };
  }, []);

  return (
    <div>
      <Text size="sm" c="gray.7" mb={6}>
        {t('consents.drawHere')}
      </Text>
      <canvas
        ref={canvasRef}
        className={classes.canvas}
        aria-label={t('consents.canvasLabel')}
        role="img"
        data-testid="signature-canvas"
      />
      <Group justify="flex-end" mt={6}>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => {
            padRef.current?.clear();
            onChange(null);
          }}
          data-testid="signature-clear"
        >
          {t('consents.clear')}
        </Button>
      </Group>
    </div>
  );
}
