import { describe, expect, it } from 'vitest';
import { tuFormsIn } from './spanish-usted.js';

describe('tuFormsIn', () => {
  it('finds tú forms, and not their usted twins or look-alike nouns (so the checks of the translation file and of the server’s strings can fail)', () => {
    for (const text of [
      'Reserva una cita con su médico.',
      'Su cita empieza pronto. Entra a la sala de espera.',
      'Elige el horario que prefieras.',
      'Revisa tu correo.',
      'Ya puedes iniciar sesión.',
      '¿Tienes dudas?',
      'Regístrate en la clínica.',
      'Espera a que el médico le admita.',
    ]) {
      expect(tuFormsIn(text), text).not.toEqual([]);
    }
    for (const text of [
      'Reserve una cita con su médico.',
      'Su cita empieza pronto. Entre a la sala de espera.',
      'Ya puede iniciar sesión.',
      'Regístrese en la clínica.',
      'El paciente entra a la sala.',
      'Prueba del altavoz',
      'Espera media',
      'Activa',
      'Reserva confirmada',
      'Acepta pacientes nuevos',
      'Intérprete',
    ]) {
      expect(tuFormsIn(text), text).toEqual([]);
    }
  });
});
